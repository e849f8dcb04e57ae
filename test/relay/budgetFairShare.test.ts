/**
 * The team's budget is shared in turns, with the live budget (100 per 300 s, 50 at once) and a clock the test
 * moves: one person's backlog of batched forecasts delays a colleague's next request, batched or forwarded, by
 * at most one turn; and a person's queue has a bound, past which they are told to come back (429).
 */
import type { RunningSandbox } from "../../sandbox/server";
import { until } from "./support/movingClock";
import { startLiveBudgetRelay, startRecordingSandbox, type LiveBudgetRelay } from "./support/liveBudgetRelay";

const BURST = 50;
const QUEUE_BOUND = 50;
const EVERY_MS = 6000; // (100 - 50) requests over 300 s: one every 6 s once the burst is spent

let sandbox: RunningSandbox;
let relay: LiveBudgetRelay;
/** The paths of the API requests that reached the sandbox, in order. */
const arrived: string[] = [];
const gone = new AbortController();

beforeAll(async () => {
  sandbox = await startRecordingSandbox(arrived);
  relay = await startLiveBudgetRelay(sandbox, { maxQueuedPerPerson: QUEUE_BOUND });
});

afterAll(async () => {
  // The backlog still waiting for the clock: its client goes, so it leaves the gate and the relay can close.
  gone.abort();
  await until("the gate to empty", () => Object.keys(relay.relay.gate.waiting()).length === 0);
  await relay.close();
  await sandbox.close();
});

const forecast = (key: string, propertyId: number) =>
  relay
    .api(
      key,
      `/v1/properties/${propertyId}/forecasts`,
      {
        account_id: 100,
        aggregations: [{ name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" }],
      },
      gone.signal,
    )
    .catch(() => undefined);

test("a colleague's requests go out within one turn of someone's backlog, which is bounded", async () => {
  const backlog = await relay.addUser("backlog", [100]);
  const colleague = await relay.addUser("colleague", [100]);
  const ids = sandbox
    .dataset()
    .properties.filter((property) => property.hasForecast)
    .map((property) => property.id);
  const forecastsArrived = () => arrived.filter((url) => url.endsWith("/forecasts"));

  // The budget's burst goes at once.
  const burst = ids.slice(0, BURST).map((id) => forecast(backlog, id));
  expect((await Promise.all(burst)).every((answer) => answer?.status === 200)).toBe(true);
  expect(forecastsArrived()).toHaveLength(BURST);

  // Then the backlog queues, up to its bound; past it, the person hears at once when to come back.
  const statuses: number[] = [];
  const refusals: Response[] = [];
  ids.slice(BURST, BURST + QUEUE_BOUND + 10).forEach((id) => {
    void forecast(backlog, id).then((answer) => {
      if (answer?.status === 429) refusals.push(answer);
      if (answer) statuses.push(answer.status);
    });
  });
  await until("the backlog to queue and its overflow to be refused", () => refusals.length === 10);
  expect(relay.waiting("backlog")).toBe(QUEUE_BOUND);
  const refusal = refusals[0] as Response;
  expect(Number(refusal.headers.get("retry-after"))).toBeGreaterThan(0);
  expect((await refusal.json()).message).toMatch(/50 requests waiting.*Try again in \d+ seconds/);

  // The colleague's forecast, then a forwarded read: each goes out within one turn of the backlog's.
  const colleagueForecast = ids[BURST + QUEUE_BOUND + 10] as number;
  const colleagueRequests = [
    {
      ask: () => forecast(colleague, colleagueForecast),
      path: `/v1/properties/${colleagueForecast}/forecasts`,
    },
    {
      ask: () =>
        relay.api(colleague, "/v1/properties/lookup?account_id=100&per_page=1", undefined, gone.signal),
      path: "/v1/properties/lookup?account_id=100&per_page=1",
    },
  ];
  for (const { ask, path } of colleagueRequests) {
    const answer = ask();
    await until("the colleague's request to wait its turn", () => relay.waiting("colleague") === 1);
    const before = arrived.length;
    for (let turn = 0; turn < 2 && !arrived.slice(before).includes(path); turn++) {
      await relay.clock.advance(EVERY_MS);
      await until("the next request to reach the service", () => arrived.length === before + turn + 1);
    }
    expect(arrived.slice(before)).toContain(path);
    expect((await answer)?.status).toBe(200);
  }
  expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(2);
});

test("a batch that carries a colleague's read goes out on the colleague's turn, whoever opened it", async () => {
  const batchWindowMs = 300;
  const shared = await startLiveBudgetRelay(sandbox, { batchWindowMs });
  const client = new AbortController();
  try {
    const opener = await shared.addUser("opener", [100]);
    const colleague = await shared.addUser("colleague", [100]);
    const ids = sandbox
      .dataset()
      .properties.filter((property) => property.hasForecast)
      .map((property) => property.id);
    const ask = (key: string, id: number, name: string, field: string) =>
      shared
        .api(
          key,
          `/v1/properties/${id}/forecasts`,
          { account_id: 100, aggregations: [{ name, field, aggregation_type: "avg" }] },
          client.signal,
        )
        .catch(() => undefined);

    // The burst is spent, then the opener has a backlog of forecasts waiting.
    const burst = Array.from({ length: BURST }, (_, index) =>
      shared.api(opener, `/v1/properties/lookup?account_id=100&per_page=1&page=${index + 1}`),
    );
    expect((await Promise.all(burst)).every((answer) => answer.status === 200)).toBe(true);
    ids.slice(0, 10).forEach((id) => void ask(opener, id, "g", "rent_growth_rate_yoy"));
    await until("the opener's backlog", () => shared.waiting("opener") === 10);

    // The opener and the colleague ask for fields of one property within one batch window: one call.
    const target = ids[20] as number;
    const openers = ask(opener, target, "g", "rent_growth_rate_yoy");
    const colleagues = ask(colleague, target, "occ", "occupancy_percent");
    await until(
      "the shared call to wait in the colleague's queue too",
      () => shared.waiting("colleague") === 1,
    );

    const path = `/v1/properties/${target}/forecasts`;
    const before = arrived.length;
    for (let turn = 0; turn < 2 && !arrived.slice(before).includes(path); turn++) {
      await shared.clock.advance(EVERY_MS);
      await until("the next request to reach the service", () => arrived.length === before + turn + 1);
    }
    expect(arrived.slice(before)).toEqual([expect.stringContaining("/forecasts"), path]);
    expect((await colleagues)?.status).toBe(200);
    expect((await openers)?.status).toBe(200);
  } finally {
    client.abort();
    await until("the gate to empty", () => Object.keys(shared.relay.gate.waiting()).length === 0);
    await shared.close();
  }
});
