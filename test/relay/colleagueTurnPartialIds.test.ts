/**
 * A batched call goes out on the turn of anyone it serves, also when it carries only some of what they asked:
 * a colleague asking for two properties, one of them already cached, waits for a call (opened by someone with a
 * backlog) that carries the other one alone, and that call leaves on the colleague's turn. Live budget (100 per
 * 300 s, 50 at once) and a clock the test moves.
 */
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { until } from "./support/movingClock";
import { startLiveBudgetRelay, type LiveBudgetRelay } from "./support/liveBudgetRelay";

const BURST = 50;
const BACKLOG = 5;
const EVERY_MS = 6000; // (100 - 50) requests over 300 s: one every 6 s once the burst is spent
const BULK_DETAILS = "/v1/properties/bulk_details";

let sandbox: RunningSandbox;
let relay: LiveBudgetRelay;
const gone = new AbortController();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000 });
  relay = await startLiveBudgetRelay(sandbox, { batchWindowMs: 300 });
});

afterAll(async () => {
  gone.abort();
  await until("the gate to empty", () => Object.keys(relay.relay.gate.waiting()).length === 0);
  await relay.close();
  await sandbox.close();
});

const details = (ids: number[]) => `${BULK_DETAILS}?account_id=100&property_ids=${ids.join(",")}`;

test("a call carrying only some of a colleague's ids goes out on the colleague's turn", async () => {
  const opener = await relay.addUser("opener", [100]);
  const colleague = await relay.addUser("colleague", [100]);
  const [cached, shared] = sandbox
    .dataset()
    .properties.slice(0, 2)
    .map((property) => property.id) as [number, number];
  const answered = (promise: Promise<Response>) => {
    const state: { answer?: Response } = {};
    void promise.then(
      (answer) => (state.answer = answer),
      () => undefined,
    );
    return state;
  };

  // One of the colleague's two properties is cached; the rest of the burst is spent; the opener has a backlog.
  expect((await relay.api(colleague, details([cached]))).status).toBe(200);
  const burst = Array.from({ length: BURST - 1 }, (_, index) =>
    relay.api(opener, `/v1/properties/lookup?account_id=100&per_page=1&page=${index + 1}`),
  );
  expect((await Promise.all(burst)).every((answer) => answer.status === 200)).toBe(true);
  for (let page = BURST; page < BURST + BACKLOG; page++)
    answered(
      relay.api(
        opener,
        `/v1/properties/lookup?account_id=100&per_page=1&page=${page}`,
        undefined,
        gone.signal,
      ),
    );
  await until("the opener's backlog", () => relay.waiting("opener") === BACKLOG);

  // The opener asks for the shared property, the colleague for both within the batch window.
  const before = sandbox.counters.get(BULK_DETAILS);
  const openers = answered(relay.api(opener, details([shared]), undefined, gone.signal));
  const colleagues = answered(relay.api(colleague, details([shared, cached]), undefined, gone.signal));
  await until(
    "the call to wait in the colleague's queue, or in the opener's alone",
    () => relay.waiting("colleague") === 1 || relay.waiting("opener") === BACKLOG + 1,
  );
  expect(relay.waiting("colleague")).toBe(1);

  // Within two turns (the opener's next, then the colleague's), the call leaves and answers both.
  for (let turn = 0; turn < 2 && relay.waiting("colleague") === 1; turn++)
    await relay.clock.advance(EVERY_MS);
  expect(relay.waiting("colleague")).toBe(0);
  await until("the call to reach the service", () => sandbox.counters.get(BULK_DETAILS) === before + 1);
  await until("the colleague's answer", () => colleagues.answer !== undefined);
  expect(colleagues.answer?.status).toBe(200);
  const body = (await colleagues.answer?.json()) as { data: { id: string }[] };
  expect(body.data.map((record) => Number(record.id)).sort()).toEqual([cached, shared].sort());
  await until("the opener's answer", () => openers.answer !== undefined);
  expect(openers.answer?.status).toBe(200);
});
