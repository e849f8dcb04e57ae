/**
 * A request that serves several people (a batch that carries a colleague's read too) is refused for a full
 * queue only when every one of them has a full queue: when one of them has room, it is admitted and goes out on
 * that person's turn. Live budget (100 per 300 s, 50 at once) and a clock the test moves.
 */
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { until } from "./support/movingClock";
import { startLiveBudgetRelay, type LiveBudgetRelay } from "./support/liveBudgetRelay";

const BURST = 50;
const QUEUE_BOUND = 2;
const EVERY_MS = 6000; // (100 - 50) requests over 300 s: one every 6 s once the burst is spent

let sandbox: RunningSandbox;
let relay: LiveBudgetRelay;
const gone = new AbortController();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000 });
  relay = await startLiveBudgetRelay(sandbox, { maxQueuedPerPerson: QUEUE_BOUND, batchWindowMs: 300 });
});

afterAll(async () => {
  gone.abort();
  await until("the gate to empty", () => Object.keys(relay.relay.gate.waiting()).length === 0);
  await relay.close();
  await sandbox.close();
});

const lookup = (page: number) => `/v1/properties/lookup?account_id=100&per_page=1&page=${page}`;

test("a batch carrying a colleague's read is admitted when its opener's queue is full", async () => {
  const busy = await relay.addUser("busy", [100]);
  const colleague = await relay.addUser("colleague", [100]);
  const answered = (promise: Promise<Response>) => {
    const state: { answer?: Response } = {};
    void promise.then(
      (answer) => (state.answer = answer),
      () => undefined,
    );
    return state;
  };

  // The burst is spent (one request after the other: the queue bound is small), then `busy` fills their
  // queue; one more of theirs alone is refused at once.
  for (let page = 1; page <= BURST; page++) expect((await relay.api(busy, lookup(page))).status).toBe(200);
  for (let page = BURST + 1; page <= BURST + QUEUE_BOUND; page++)
    answered(relay.api(busy, lookup(page), undefined, gone.signal));
  await until("busy's queue to fill", () => relay.waiting("busy") === QUEUE_BOUND);
  const alone = await relay.api(busy, lookup(BURST + QUEUE_BOUND + 1), undefined, gone.signal);
  expect(alone.status).toBe(429);

  // `busy` opens a forecast batch, the colleague joins it within the window: one call for both.
  const propertyId = sandbox.dataset().properties.find((property) => property.hasForecast)?.id as number;
  const ask = (key: string, field: string) =>
    answered(
      relay.api(
        key,
        `/v1/properties/${propertyId}/forecasts`,
        { account_id: 100, aggregations: [{ name: field, field, aggregation_type: "avg" }] },
        gone.signal,
      ),
    );
  const busys = ask(busy, "rent_growth_rate_yoy");
  const colleagues = ask(colleague, "occupancy_percent");
  await until(
    "the batch to wait in the colleague's queue, or an answer",
    () => relay.waiting("colleague") === 1 || colleagues.answer !== undefined,
  );
  expect(colleagues.answer?.status).toBeUndefined();

  const forecasts = () => sandbox.counters.get("/v1/properties/:property_id/forecasts");
  for (let turn = 0; turn < QUEUE_BOUND + 1 && forecasts() === 0; turn++) await relay.clock.advance(EVERY_MS);
  await until("both answers", () => busys.answer !== undefined && colleagues.answer !== undefined);
  expect(colleagues.answer?.status).toBe(200);
  expect(busys.answer?.status).toBe(200);
  expect(forecasts()).toBe(1);
});
