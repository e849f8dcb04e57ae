/**
 * A reloaded pane and the RENT.HISTORY job an earlier pane left running: followed while within its bound (even
 * past the time its size usually takes), so the quota is not spent twice; submitted again only once past it.
 */
import "fake-indexeddb/auto";
import { DEMO_CLIENTS } from "../../sandbox/data/clients";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { expectedJobMs } from "../../src/data/history/exportJobWait";
import { history } from "../../src/functions/historyFunctions";
import { useHistoryOptions } from "../../src/functions/historyExportsOf";
import { session } from "../../src/session/session";
import { UNPACED } from "../support/signedInSandbox";
import { MovingClock, settle } from "../relay/support/movingClock";

const PRO = DEMO_CLIENTS.find((client) => client.clientId === "demo-pro")!;
const JOBS = "/v1/bulk_api/jobs";
/** RENT.HISTORY's bound on a job: three times its usual time, at least 15 minutes (historyExports.ts). */
const BOUND_MS = 15 * 60_000;

let sandbox: RunningSandbox;
let databaseCounter = 0;

const movingSleep = async (ms: number) => {
  await sandbox.context.worker.flush();
  sandbox.clock.advance(ms);
};
const neverWakes = () => new Promise<void>(() => undefined);

async function signIn(databaseName: string, sleep: (ms: number) => Promise<void>): Promise<void> {
  useHistoryOptions({ now: () => sandbox.clock.now(), sleep, batchWindowMs: 20 });
  session.useDataOptions({ ...UNPACED, databaseName });
  await session.signIn(
    { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
    { kind: "client", clientId: PRO.clientId, clientSecret: PRO.clientSecret },
  );
}

/** One RENT.HISTORY cell of one property over January: what it showed, and its first table or error. */
function januaryCell(id: number) {
  const shown: unknown[] = [];
  let settle: (value: unknown) => void = () => undefined;
  const final = new Promise<unknown>((resolve) => (settle = resolve));
  const invocation: CustomFunctions.StreamingInvocation<unknown[][]> & { cancel(): void } = {
    address: "Sheet1!A1",
    functionName: "HISTORY",
    setResult(value) {
      shown.push(value);
      if (value instanceof Error || (Array.isArray(value) && value.length > 1)) settle(value);
    },
    cancel() {
      invocation.onCanceled?.();
    },
  };
  history([[id]], [["avg_rent"]], "2026-01-01", "2026-01-31", null, null, null, null, invocation);
  return { shown, final, invocation };
}

/** A first pane submits the cell's job and is gone while it waits; resolves once the job is submitted. */
async function leaveJobRunning(databaseName: string, id: number): Promise<void> {
  await signIn(databaseName, neverWakes);
  const cell = januaryCell(id);
  for (let tries = 0; !cell.shown.some((s) => String(s).startsWith("export running")) && tries < 400; tries++)
    await new Promise((resolve) => setTimeout(resolve, 5));
  expect(String(cell.shown.at(-1))).toMatch(/^export running/);
  cell.invocation.cancel();
}

beforeAll(async () => {
  sandbox = await startInProcessSandbox({
    now: "2026-03-15T12:00:00.000Z",
    propertyCount: 2000,
    jobTimeScale: 1,
    rateLimit: 1_000_000,
    tokenLifetimeSeconds: 30 * 86_400,
  });
});

afterEach(() => session.signOut());
afterAll(() => sandbox.close());

describe("a reloaded pane and a job left running", () => {
  it("follows a job past its expected time but within its bound, and submits nothing", async () => {
    const databaseName = `history-reload-${++databaseCounter}`;
    const jobsBefore = sandbox.counters.get(JOBS);
    await leaveJobRunning(databaseName, 100051);
    expect(sandbox.counters.get(JOBS) - jobsBefore).toBe(1);

    // The reload comes well after the job's usual time (about a minute), well within its bound.
    const late = 5 * 60_000;
    expect(late).toBeGreaterThan(3 * expectedJobMs(1, 31));
    expect(late).toBeLessThan(BOUND_MS);
    sandbox.clock.advance(late);
    await signIn(databaseName, movingSleep);
    const table = (await januaryCell(100051).final) as unknown[][];

    expect(table[0]).toEqual(["date", "id", "avg_rent"]);
    expect(table).toHaveLength(32);
    expect(sandbox.counters.get(JOBS) - jobsBefore).toBe(1);
  });

  it("submits the job again once past its bound", async () => {
    const databaseName = `history-reload-${++databaseCounter}`;
    const jobsBefore = sandbox.counters.get(JOBS);
    await leaveJobRunning(databaseName, 100052);

    sandbox.clock.advance(BOUND_MS + 60_000);
    await signIn(databaseName, movingSleep);
    const table = (await januaryCell(100052).final) as unknown[][];

    expect(table[0]).toEqual(["date", "id", "avg_rent"]);
    expect(sandbox.counters.get(JOBS) - jobsBefore).toBe(2);
  });
});

describe("a sign-out while a job runs", () => {
  it("ends the job's polls at once: no wait left on the clock, no look sent later", async () => {
    const clock = new MovingClock(sandbox.clock.now());
    await signIn(`history-reload-${++databaseCounter}`, clock.sleep);
    const cell = januaryCell(100053);
    for (let tries = 0; clock.sleeping === 0 && tries < 400; tries++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(String(cell.shown.at(-1))).toMatch(/^export running/);
    expect(clock.sleeping).toBe(1);
    const requestsBefore = sandbox.counters.total();

    await session.signOut();
    await settle();
    expect(clock.sleeping).toBe(0);
    const shown = (await cell.final) as { code?: string; message?: string };
    expect(shown).toBeInstanceOf(CustomFunctions.Error);
    expect(shown.message).toMatch(/^Signed out/);
    await clock.advance(60 * 60_000);
    expect(sandbox.counters.total()).toBe(requestsBefore);
  });
});
