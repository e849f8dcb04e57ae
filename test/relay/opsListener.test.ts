/**
 * Readiness and metrics are for the people who run the relay: they answer on the ops listener (127.0.0.1 by
 * default), not on the public port the add-in uses; and a refused client secret costs the service's token
 * endpoint one request per back-off interval however often /readyz is asked, not one per call.
 */
import type { RunningSandbox } from "../../sandbox/server";
import { RELAY_CLIENT, startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox?.close();
});

describe("a relay with the right secret", () => {
  let relay: TestRelay;

  beforeAll(async () => {
    relay = await startTestRelay(sandbox);
  });

  afterAll(async () => {
    await relay?.close();
  });

  test("/metrics and /readyz are not served on the public listener", async () => {
    for (const path of ["/metrics", "/readyz"]) {
      const answer = await fetch(`${relay.url}${path}`);
      expect(answer.status).toBe(404);
      expect(await answer.text()).not.toMatch(/relay_upstream|"checks"/);
    }
  });

  test("the ops listener serves them, on 127.0.0.1 and a port of its own; /healthz answers on both", async () => {
    const ops = new URL(relay.relay.opsUrl);
    expect(ops.hostname).toBe("127.0.0.1");
    expect(ops.port).not.toBe(new URL(relay.url).port);
    expect((await fetch(`${relay.relay.opsUrl}/readyz`)).status).toBe(200);
    const metrics = await fetch(`${relay.relay.opsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain("relay_queue_length");
    expect((await fetch(`${relay.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${relay.relay.opsUrl}/healthz`)).status).toBe(200);
  });
});

test("/readyz asked ten times with a refused secret sends the token endpoint one request", async () => {
  const relay = await startTestRelay(sandbox, { clientSecret: `${RELAY_CLIENT.clientSecret}-wrong` });
  try {
    const before = sandbox.counters.get("/oauth/token");
    const answers = [];
    for (let call = 0; call < 5; call++) answers.push(await fetch(`${relay.relay.opsUrl}/readyz`));
    answers.push(
      ...(await Promise.all(Array.from({ length: 5 }, () => fetch(`${relay.relay.opsUrl}/readyz`)))),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { checks: { service: string } }).checks.service).toMatch(
        /client id or secret was not accepted/,
      );
    }
    expect(sandbox.counters.get("/oauth/token") - before).toBe(1);
  } finally {
    await relay.close();
  }
});
