import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { LIVE_PACING } from "../../src/data/tokenBucket";
import { MAX_BULK_DETAILS_IDS } from "../../src/api/contractLimits";
import { DEFAULT_CELL_TIMEOUT_MS, setCellClock, setCellTimeout } from "../../src/functions/cellCall";
import { property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { fakeInvocation } from "../support/invocation";
import { cellClockOn, MovingClock } from "../relay/support/movingClock";
import { dataOptionsOn, untilAnswered } from "../support/addinOnMovingClock";

// The block: RENT.PROPERTY over 10,000 ids, 50 bulk details requests, under the live service's own
// budget (100 requests per 300 s, enforced by the sandbox) and the add-in's live pacing, with cells bound to
// 60 s. Every clock (the sandbox's budget window, the add-in's pacing and batch window, the cells' bounds) reads
// one clock that the test moves, so minutes of pacing cost no real time and nothing is scaled down.
const IDS = Array.from({ length: 10_000 }, (_, index) => 100_001 + index);
/** Earlier cells of the workbook, one request each, which spend the pacing's burst before the block. */
const EARLIER = Array.from({ length: LIVE_PACING.burst }, (_, index) => 110_001 + index);
const BULK = "/v1/properties/bulk_details";
const LIVE_LIMIT = 100;
const LIVE_WINDOW_SECONDS = 300;
/** The clock's step: the pacing's interval between two requests (3 s), so each step releases about one. */
const STEP_MS = LIVE_PACING.windowMs / LIVE_PACING.limit;
/** The account's bulk export quota, named to the add-in as the pane's setting would. */
const QUOTA = 20_000;

let sandbox: RunningSandbox;
const clock = new MovingClock(Date.parse("2026-11-02T09:00:00Z"));

/** The cells' bounds on the moving clock. */
const movingCellClock = cellClockOn(clock);

/**
 * Moves every clock one step, then lets the requests that step released reach the sandbox and waits for their
 * answers before the next step: the clock stands still while the sandbox works, however slow the machine, so
 * only the pacing's waits pass on it.
 */
async function step(): Promise<void> {
  await clock.advance(STEP_MS);
  sandbox.clock.set(clock.now());
  await untilAnswered();
}

type Outcome = { value: unknown } | { error: unknown } | undefined;

/** Moves the clock step by step until `work` settles, for at most the thirty minutes a cell may wait. */
async function whileClockMoves(work: Promise<unknown>): Promise<Outcome> {
  let outcome: Outcome;
  work.then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  );
  const started = clock.now();
  await untilAnswered();
  while (outcome === undefined && clock.now() - started < 30 * 60_000) await step();
  return outcome;
}

beforeAll(async () => {
  // The default dataset, which the worker's other sandboxes share, holds every id of the block and the cells.
  sandbox = await startInProcessSandbox({
    rateLimit: LIVE_LIMIT,
    rateLimitWindowSeconds: LIVE_WINDOW_SECONDS,
    bulkExportQuota: QUOTA,
    now: clock.now(),
  });
  session.useDataOptions(dataOptionsOn(clock));
  setCellClock(movingCellClock);
  await session.signIn(
    { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
    { kind: "client", clientId: "demo-pro", clientSecret: "sandbox-secret-pro" },
  );
  // The block spends 10,000 of the bulk export quota: allowed up front, as the pane's settings would.
  session.requireSignedIn().data.quota.configure({ maxShare: 1, quotaLimit: QUOTA });
});

afterAll(async () => {
  setCellClock(undefined);
  setCellTimeout(DEFAULT_CELL_TIMEOUT_MS);
  session.signOut();
  session.useDataOptions({});
  await sandbox.close();
});

it("RENT.PROPERTY over 10,000 ids finishes under the live budget and pacing, past many cells' bounds", async () => {
  const data = session.requireSignedIn().data;
  const pausesBefore = (await data.stats()).requests.gatePauses;
  // The workbook's earlier cells, each calculated on its own, leave the block no burst to start with.
  for (const id of EARLIER) await whileClockMoves(property([[id]], [["unit_count"]], fakeInvocation()));
  const before = sandbox.counters.get(BULK);
  const started = clock.now();

  const outcome = await whileClockMoves(
    property(
      IDS.map((id) => [id]),
      [["unit_count"]],
      fakeInvocation(),
    ),
  );
  expect(outcome).toBeDefined();
  if (!outcome || "error" in outcome)
    throw new Error(`The block failed: ${String(outcome && outcome.error)}`);
  const block = outcome.value as unknown[][];
  expect(block).toHaveLength(IDS.length);
  const dataset = sandbox.dataset();
  for (const index of [0, 4_321, IDS.length - 1])
    expect(block[index]).toEqual([dataset.propertyById.get(IDS[index] as number)?.unitCount]);
  expect(sandbox.counters.get(BULK) - before).toBe(IDS.length / MAX_BULK_DETAILS_IDS);
  // The service never had to refuse a request: the pacing kept under its budget.
  expect((await data.stats()).requests.gatePauses - pausesBefore).toBe(0);
  // And the pacing was really in force: the block took longer than one cell's bound.
  expect(clock.now() - started).toBeGreaterThan(DEFAULT_CELL_TIMEOUT_MS);
  // Minutes on the moving clock take seconds of real time: 10,050 properties pass through the sandbox.
}, 180_000);
