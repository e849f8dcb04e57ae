/**
 * Every upstream call has a deadline, headers and body, with a clock the test moves: a service that does not
 * answer, or trickles its answer, ends in the relay's clear 504 when the deadline passes, forwarded and batched
 * reads alike; an export download that stalls ends too.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { fetchDownload } from "../../relay/upstream/upstreamFetch";
import { ApiError } from "../../src/api/errors";
import { MovingClock, until } from "./support/movingClock";
import { startLiveBudgetRelay, type LiveBudgetRelay } from "./support/liveBudgetRelay";

const DEADLINE_MS = 25_000;
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000 });
});

afterAll(async () => {
  await sandbox.close();
});

const forecastBody = {
  account_id: 100,
  aggregations: [{ name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" }],
};

/**
 * A service that sends its headers and the first bytes of an answer, then nothing more: what the sandbox
 * cannot play (its faults delay whole answers). Its responses are kept so the test can end them.
 */
async function startTricklingService(): Promise<{ url: string; server: Server; open: ServerResponse[] }> {
  const open: ServerResponse[] = [];
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { "content-type": "application/json" });
    response.write('{"data": [');
    open.push(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, open };
}

describe("a service that does not answer", () => {
  let relay: LiveBudgetRelay;

  beforeAll(async () => {
    relay = await startLiveBudgetRelay(sandbox, { upstreamDeadlineMs: DEADLINE_MS });
    sandbox.faults.update({ latencyMs: 60_000 });
  });

  afterAll(async () => {
    sandbox.faults.reset();
    await relay.close();
  });

  test("forwarded and batched reads end in a 504 that says so when the deadline passes", async () => {
    const key = await relay.addUser("waiting", [100]);
    const propertyId = sandbox.dataset().properties.find((property) => property.hasForecast)?.id as number;
    const lookup = relay.api(key, "/v1/properties/lookup?account_id=100&per_page=1");
    const forecast = relay.api(key, `/v1/properties/${propertyId}/forecasts`, forecastBody);
    const reached = () =>
      Object.entries(sandbox.counters.snapshot())
        .filter(([path]) => path.startsWith("/v1/"))
        .reduce((sum, [, count]) => sum + count, 0);
    await until("both calls to reach the service", () => reached() === 2);

    await relay.clock.advance(DEADLINE_MS - 1);
    let settled = false;
    void Promise.all([lookup, forecast]).then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);

    await relay.clock.advance(1);
    for (const answer of await Promise.all([lookup, forecast])) {
      expect(answer.status).toBe(504);
      expect((await answer.json()).message).toMatch(/did not answer the team relay within 25 seconds/);
    }
  });
});

describe("a service that trickles its answer", () => {
  let relay: LiveBudgetRelay;
  let service: Awaited<ReturnType<typeof startTricklingService>>;

  beforeAll(async () => {
    service = await startTricklingService();
    relay = await startLiveBudgetRelay(sandbox, { upstreamDeadlineMs: DEADLINE_MS, serviceUrl: service.url });
  });

  afterAll(async () => {
    for (const response of service.open) response.destroy();
    await relay.close();
    service.server.closeAllConnections();
    await new Promise((resolve) => service.server.close(resolve));
  });

  test("a body that never ends is cut at the deadline with a 504", async () => {
    const key = await relay.addUser("trickled", [100]);
    const answer = relay.api(key, "/v1/properties/lookup?account_id=100&per_page=1");
    await until("the answer to start", () => service.open.length === 1);
    await relay.clock.advance(DEADLINE_MS);
    const cut = await answer;
    expect(cut.status).toBe(504);
    expect((await cut.json()).message).toMatch(/did not answer the team relay within 25 seconds/);
  });

  test("an export download that stalls ends with a timeout, headers or body", async () => {
    const clock = new MovingClock();
    const download = await fetchDownload(`${service.url}/export.csv`, DEADLINE_MS, clock);
    expect(download.status).toBe(200);
    const reader = (download.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).done).toBe(false);
    const stalled = reader.read();
    stalled.catch(() => undefined);
    await clock.advance(DEADLINE_MS);
    await expect(stalled).rejects.toBeInstanceOf(ApiError);
    await expect(stalled).rejects.toMatchObject({ kind: "timeout" });
  });
});

test("an export download whose headers never come ends with a timeout", async () => {
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const clock = new MovingClock();
  const download = fetchDownload(
    `http://127.0.0.1:${(silent.address() as AddressInfo).port}/x`,
    DEADLINE_MS,
    clock,
  );
  download.catch(() => undefined);
  await until("the request to be sent", () => clock.sleeping === 1);
  await clock.advance(DEADLINE_MS);
  await expect(download).rejects.toMatchObject({ kind: "timeout" });
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});
