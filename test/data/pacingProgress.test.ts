import "fake-indexeddb/auto";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import type { DataLayer } from "../../src/data/dataLayer";
import { JOBS } from "../../src/data/endpoints";
import { LIVE_PACING } from "../../src/data/tokenBucket";
import { MovingClock, until } from "../relay/support/movingClock";
import { layerFor } from "./support/dataHarness";

// What the pane's progress strip reads: a pull of 80 requests under the live service's budget (100 requests per
// 300 s, enforced by the sandbox) and the add-in's live pacing, on one clock the test moves. The burst goes at
// once; the other 30 wait for their turn, one per 6 s, so the state must say 30 waiting, 50 of 80 done and 3
// minutes left, and those 3 minutes must be what the pull then takes.
const PULL = 80;
const TURN_MS = LIVE_PACING.windowMs / (LIVE_PACING.limit - LIVE_PACING.burst);
const JOBS_ROUTE = `/v1${JOBS.operation.path}`;

let sandbox: RunningSandbox;
let layer: DataLayer;
const clock = new MovingClock(Date.parse("2026-11-02T09:00:00Z"));

beforeAll(async () => {
  sandbox = await startInProcessSandbox({
    rateLimit: LIVE_PACING.limit,
    rateLimitWindowSeconds: LIVE_PACING.windowMs / 1000,
    now: clock.now(),
  });
  // The live pacing (the harness's default is unpaced) on the moving clock.
  layer = layerFor(sandbox, { pacing: undefined, now: clock.now, sleep: clock.sleep }).layer;
});

afterAll(async () => {
  await layer.close();
  await sandbox.close();
});

const requests = () => layer.progress().requests;

/** Until nothing is on the wire: the sandbox's work takes real time, which the moving clock does not count. */
const answered = () => until("the answers on the wire", () => requests().onTheWire === 0);

/** Moves every clock one turn of the pacing, then lets the request it released be answered. */
async function nextTurn(): Promise<void> {
  await clock.advance(TURN_MS);
  sandbox.clock.set(clock.now());
  await answered();
}

/** `count` requests, each its own page of the job list (never cached, so each one is sent). */
function pull(count: number, firstPage = 1): Promise<unknown>[] {
  return Array.from({ length: count }, (_, index) =>
    layer.send(JOBS, { page: firstPage + index, per_page: 1 }),
  );
}

it("reports what waits, done of total and the time left at the live pace, and the time left is right", async () => {
  let changes = 0;
  layer.onProgressChange(() => changes++);
  const before = sandbox.counters.get(JOBS_ROUTE);
  const sent = pull(PULL);
  await until("the burst to be answered", () => requests().done === LIVE_PACING.burst);
  await answered();

  const started = clock.now();
  const waiting = PULL - LIVE_PACING.burst;
  expect(requests()).toEqual({
    waiting,
    onTheWire: 0,
    done: LIVE_PACING.burst,
    total: PULL,
    timeLeftMs: waiting * TURN_MS,
    pausedForMs: 0,
    limit: { ...LIVE_PACING, learned: false },
  });
  expect(sandbox.counters.get(JOBS_ROUTE) - before).toBe(LIVE_PACING.burst);

  // One turn later: one more went out and was answered, and the time left is one turn shorter.
  const changesBefore = changes;
  await nextTurn();
  expect(changes).toBeGreaterThan(changesBefore);
  expect(requests()).toMatchObject({
    waiting: waiting - 1,
    done: LIVE_PACING.burst + 1,
    total: PULL,
    timeLeftMs: (waiting - 1) * TURN_MS,
  });

  while (requests().waiting > 0) await nextTurn();
  await Promise.all(sent);
  // The time the state gave at the start is the time the rest of the pull took.
  expect(clock.now() - started).toBe(waiting * TURN_MS);
  expect(requests()).toMatchObject({ waiting: 0, onTheWire: 0, done: PULL, total: PULL, timeLeftMs: 0 });
  expect((await layer.stats()).requests).toMatchObject({ pacedWaits: waiting, rateLimitWaits: 0 });
  expect(sandbox.counters.get(JOBS_ROUTE) - before).toBe(PULL);

  // The next pull is counted on its own: the burst is spent, so its one request waits a turn.
  const next = pull(1, PULL + 1);
  await until("the next pull to arrive", () => requests().total === 1);
  expect(requests()).toMatchObject({ waiting: 1, done: 0, total: 1, timeLeftMs: TURN_MS });
  await nextTurn();
  await Promise.all(next);
  expect(requests()).toMatchObject({ waiting: 0, done: 1, total: 1 });
});
