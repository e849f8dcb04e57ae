/**
 * What the people who run the relay look at: /healthz, /readyz, /metrics (on its ops listener) and the status page, against a real
 * sandbox and a real redis-server with a password. None of them shows a secret or names a person.
 */
import type { RunningSandbox } from "../../sandbox/server";
import { startSandbox } from "../../sandbox/server";
import { RelayMetrics } from "../../relay/status/metrics";
import { LocalBudget } from "../../relay/store/localCoordination";
import { startRedis, type RunningRedis } from "./support/redisServer";
import { RELAY_CLIENT, startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

const REDIS_PASSWORD = "redis-pass-Zq8w1x";

/** Every sample of a Prometheus text exposition, checked line by line against the format. */
function parseExposition(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const typed = new Set<string>();
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  expect(text.endsWith("\n")).toBe(true);
  for (const line of text.trimEnd().split("\n")) {
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      typed.add(type[1] as string);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* \S/.test(line)) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/.exec(line);
    if (!sample) throw new Error(`Not a line of the Prometheus text format: ${line}`);
    const [, name, labelText, value] = sample as unknown as [string, string, string | undefined, string];
    expect(typed.has(name)).toBe(true);
    const labels: Record<string, string> = {};
    for (const pair of (labelText ?? "").match(/[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"/g) ?? []) {
      const at = pair.indexOf("=");
      labels[pair.slice(0, at)] = JSON.parse(pair.slice(at + 1)) as string;
    }
    samples.push({ name, labels, value: Number(value) });
  }
  return samples;
}

function sampleValue(
  samples: ReturnType<typeof parseExposition>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  return samples.find(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  )?.value;
}

describe("a relay on a Redis with a password", () => {
  let sandbox: RunningSandbox;
  let redis: RunningRedis;
  let relay: TestRelay;
  let adminKey: string;
  let userKey: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    redis = await startRedis({ password: REDIS_PASSWORD });
    expect(redis.url).toContain(REDIS_PASSWORD);
    relay = await startTestRelay(sandbox, { store: redis.url });
    adminKey = await relay.addUser("ops-admin", [], true);
    userKey = await relay.addUser("analyst-mireille", [100]);
  });

  afterAll(async () => {
    await relay?.close();
    await redis?.stop();
    await sandbox?.close();
  });

  /** The status page is on the public listener; /healthz, /readyz and /metrics on the ops listener. */
  const get = (path: string, key?: string) =>
    fetch(`${path.startsWith("/relay/") ? relay.url : relay.relay.opsUrl}${path}`, {
      headers: key ? { Authorization: `Bearer ${key}` } : {},
    });

  test("/healthz answers 200 while the process serves", async () => {
    const answer = await get("/healthz");
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: "ok" });
  });

  test("/readyz is ready when the store answers and the service accepts the relay's credentials", async () => {
    const answer = await get("/readyz");
    expect(await answer.json()).toEqual({ status: "ready", checks: { store: "ok", service: "ok" } });
    expect(answer.status).toBe(200);
  });

  test("/metrics counts upstream requests by operation and status, cache hits and the queue, and names nobody", async () => {
    for (let round = 0; round < 2; round++)
      expect((await relay.api(userKey, "/v1/accounts/100/comp_sets")).status).toBe(200);
    const answer = await get("/metrics");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await answer.text();
    const samples = parseExposition(text);
    expect(
      sampleValue(samples, "relay_upstream_requests_total", {
        operation: "listCompSets",
        status: "200",
      }),
    ).toBe(1);
    expect(sampleValue(samples, "relay_cache_hits_total")).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, "relay_queue_length")).toBe(0);
    expect(sampleValue(samples, "relay_upstream_paused_seconds")).toBe(0);
    for (const secret of ["analyst-mireille", "ops-admin", userKey, adminKey, "100", REDIS_PASSWORD])
      expect(text).not.toContain(secret);
  });

  test("the status page, its figures and the ops answers never show the store's password or any secret", async () => {
    const status = await get("/relay/status", adminKey);
    expect(status.status).toBe(200);
    const figures = (await status.json()) as { store: string };
    expect(figures.store).toMatch(/^redis:127\.0\.0\.1:\d+$/);
    const answers = [JSON.stringify(figures)];
    for (const path of ["/relay/", "/relay/status.js", "/healthz", "/readyz", "/metrics"])
      answers.push(await (await get(path)).text());
    // With Redis gone the readiness check explains, still without the password.
    await redis.stop();
    const notReady = await get("/readyz");
    expect(notReady.status).toBe(503);
    const body = (await notReady.json()) as { status: string; checks: { store: string; service: string } };
    expect(body.status).toBe("not ready");
    expect(body.checks.store).not.toBe("ok");
    answers.push(JSON.stringify(body), await (await get("/relay/status", adminKey)).text(), relay.log.text);
    for (const text of answers) {
      expect(text).not.toContain(REDIS_PASSWORD);
      expect(text).not.toContain(RELAY_CLIENT.clientSecret);
      expect(text).not.toContain(adminKey);
      expect(text).not.toContain(userKey);
    }
  });
});

test("/readyz says the service refused the relay's credentials, without the secret", async () => {
  const sandbox = await startTestSandbox();
  const wrongSecret = `${RELAY_CLIENT.clientSecret}-not-this-one`;
  const relay = await startTestRelay(sandbox, { clientSecret: wrongSecret });
  try {
    const answer = await fetch(`${relay.relay.opsUrl}/readyz`);
    expect(answer.status).toBe(503);
    const body = (await answer.json()) as { checks: { store: string; service: string } };
    expect(body.checks.store).toBe("ok");
    expect(body.checks.service).toMatch(/client id or secret was not accepted/);
    expect(JSON.stringify(body)).not.toContain(wrongSecret);
  } finally {
    await relay.close();
    await sandbox.close();
  }
});

test("a 429 from the service is counted as a pause, with the time left of it, by operation and status", async () => {
  // A sandbox that allows one request per window: the second is answered 429, as the live service does.
  const sandbox = await startSandbox({ port: 0, rateLimit: 1 });
  try {
    const metrics = new RelayMetrics();
    const observed = metrics.observe((input, init) => fetch(input, init), `${sandbox.url}/v1`);
    const token = (await (
      await fetch(`${sandbox.url}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: RELAY_CLIENT.clientId,
          client_secret: RELAY_CLIENT.clientSecret,
        }),
      })
    ).json()) as { access_token: string };
    const statuses: number[] = [];
    for (let request = 0; request < 2; request++) {
      const answer = await observed(`${sandbox.url}/v1/accounts`, {
        headers: { Authorization: `Bearer ${token.access_token}` },
      });
      await answer.arrayBuffer();
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([200, 429]);
    let clock = 1_000_000;
    const budget = new LocalBudget(() => clock);
    await budget.pauseUntil(clock + 330_000);
    clock += 30_000;
    const samples = parseExposition(
      await metrics.render({
        waiting: () => ({ a: 2, b: 0 }),
        pausedUntil: () => budget.pausedUntil(),
        now: () => clock,
      }),
    );
    expect(
      sampleValue(samples, "relay_upstream_requests_total", { operation: "listAccounts", status: "200" }),
    ).toBe(1);
    expect(
      sampleValue(samples, "relay_upstream_requests_total", { operation: "listAccounts", status: "429" }),
    ).toBe(1);
    expect(sampleValue(samples, "relay_upstream_pauses_total")).toBe(1);
    expect(sampleValue(samples, "relay_upstream_paused_seconds")).toBe(300);
    expect(sampleValue(samples, "relay_queue_length")).toBe(2);
    expect(sampleValue(samples, "relay_queue_people")).toBe(1);
  } finally {
    await sandbox.close();
  }
});
