/**
 * "Refresh with fresh data" as one piece of work with a start, an end and a report (issue 29, findings 1 and 2),
 * under the live service's budget (100 requests per 300 s, enforced by the sandbox) and the add-in's live pacing.
 *
 * The workbook: a model whose rows each ask RENT.PROPERTY for one property and reference the row above, so Excel
 * calculates them one after another, each once the row above has answered; and Excel starts calculating
 * re-entered formulas a moment after they were written. Sixty rows, one request each, take the pacing's burst
 * and then one request per 6 s: a refresh of over a minute, longer than any fixed window of freshness.
 *
 * Every clock (the sandbox's budget window, the add-in's pacing and batch window, the cells' bounds, the pane's
 * looks, and Date, which the add-in reads for its stamp) is one clock that the test moves, so minutes cost no
 * real time.
 */
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import type { RefreshReport } from "../../src/data/refreshPass";
import { cellAddress } from "../../src/excel/a1";
import { cellAsOf } from "../../src/functions/cellAsOf";
import { setCellClock } from "../../src/functions/cellCall";
import { property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { refreshedText } from "../../src/taskpane/asOfText";
import { RefreshController, type RefreshOutcome } from "../../src/taskpane/refreshController";
import { MockExcel, type MockCellValue } from "../excel/support/mockExcel";
import { fakeInvocation } from "../support/invocation";
import { cellClockOn, MovingClock } from "../relay/support/movingClock";
import { dataOptionsOn, untilAnswered } from "../support/addinOnMovingClock";

const ROWS = 60;
const IDS = Array.from({ length: ROWS }, (_, index) => 100_101 + index);
const BULK = "/v1/properties/bulk_details";
const STEP_MS = 1_000;
/** Excel starts calculating re-entered formulas a moment after the write that re-entered them. */
const CALCULATION_STARTS_AFTER_MS = 1_500;
/** The window the add-in used to give a refresh, whatever its length. */
const OLD_FIXED_WINDOW_MS = 30_000;

// Tuesday 2026-11-24, 06:30 US Eastern (EST): the day's data is posted at 07:00, 12:00 UTC.
const OPENED = Date.parse("2026-11-24T11:30:00Z");
const AFTER_POSTING = Date.parse("2026-11-24T12:05:00Z");
const NEXT_POSTING = Date.parse("2026-11-25T12:00:00Z");

const clock = new MovingClock(OPENED);
let sandbox: RunningSandbox;
let excel: MockExcel;
let controller: RefreshController;

async function moveTo(instant: number): Promise<void> {
  await clock.advance(instant - clock.now());
  sandbox.clock.set(clock.now());
  jest.setSystemTime(clock.now());
}

/** Moves every clock step by step until `work` settles (at most an hour). */
async function whileClockMoves<T>(work: Promise<T>): Promise<T> {
  let settled = false;
  work.then(
    () => (settled = true),
    () => (settled = true),
  );
  const started = clock.now();
  await untilAnswered();
  while (!settled && clock.now() - started < 3_600_000) {
    await moveTo(clock.now() + STEP_MS);
    await untilAnswered();
  }
  return work;
}

/** The model sheet: row r + 2 holds RENT.PROPERTY of IDS[r] in column B. */
const formulaOf = (id: number) => `=RENT.PROPERTY(${id},"unit_count")`;
const a1Of = (row: number) => cellAddress(row + 1, 1);

/**
 * Excel's calculation of the model as the test sees it: re-entered formulas are queued, and calculated in row
 * order, each when the row above has answered, from a moment after they were written. A calculating cell shows
 * #BUSY!; it shows the function's value, or its error's code, once its call has settled.
 */
class ModelCalculation {
  private readonly queue: number[] = [];
  private running = false;
  private finished: (() => void)[] = [];
  lastSettledAt = 0;
  on = false;

  entered(formula: string): MockCellValue[][] {
    const row = IDS.findIndex((id) => formulaOf(id) === formula);
    if (row < 0) return [["#NAME?"]];
    if (this.on) {
      this.queue.push(row);
      if (!this.running) {
        this.running = true;
        void clock.sleep(CALCULATION_STARTS_AFTER_MS).then(() => this.run());
      }
    }
    // Until Excel calls the function again, the cell shows what it showed.
    return [[excel.cellValue("Model", a1Of(row))]];
  }

  private async run(): Promise<void> {
    for (let row = this.queue.shift(); row !== undefined; row = this.queue.shift()) {
      const cell = excel.sheet("Model").values[row + 1] as MockCellValue[];
      cell[1] = "#BUSY!";
      const id = IDS[row] as number;
      cell[1] = await property([[id]], [["unit_count"]], fakeInvocation(`Model!${a1Of(row)}`)).then(
        (value) => (value as number[][])[0]?.[0] as number,
        (error: { code?: string }) => error.code ?? "#VALUE!",
      );
      this.lastSettledAt = clock.now();
    }
    this.running = false;
    for (const done of this.finished.splice(0)) done();
  }

  /** Settles once every queued formula has been calculated. */
  idle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.finished.push(resolve));
  }
}

const calculation = new ModelCalculation();

const sent = () => sandbox.counters.get(BULK);
const shown = () => IDS.map((_, row) => excel.cellValue("Model", a1Of(row)));
const expectedValues = () => IDS.map((id) => sandbox.dataset().propertyById.get(id)?.unitCount);

/** A refresh of the model; the clock moves on until Excel has calculated every row, whenever the stamp came. */
async function refresh(): Promise<RefreshOutcome> {
  const outcome = await whileClockMoves(controller.refresh({ kind: "sheet", sheetName: "Model" }));
  await whileClockMoves(calculation.idle());
  return outcome;
}

beforeAll(async () => {
  // Only Date is faked: it follows the moving clock, so whatever the add-in reads from it moves with the rest.
  jest.useFakeTimers({
    doNotFake: [
      "hrtime",
      "nextTick",
      "performance",
      "queueMicrotask",
      "requestAnimationFrame",
      "cancelAnimationFrame",
      "requestIdleCallback",
      "cancelIdleCallback",
      "setImmediate",
      "clearImmediate",
      "setInterval",
      "clearInterval",
      "setTimeout",
      "clearTimeout",
    ],
    now: OPENED,
  });
  sandbox = await startInProcessSandbox({ rateLimit: 100, rateLimitWindowSeconds: 300, now: OPENED });
  session.useDataOptions({
    ...dataOptionsOn(clock),
    databaseName: `refresh-truth-${process.pid}`,
  });
  setCellClock(cellClockOn(clock));
  await session.signIn(
    { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
    { kind: "client", clientId: "demo-pro", clientSecret: "sandbox-secret-pro" },
  );
  excel = new MockExcel({ evaluate: (formula) => calculation.entered(formula) });
  excel.addSheet("Model");
  // The workbook opened before the day's posting: every row calculated then, in one bulk request.
  const opened = await whileClockMoves(
    Promise.all(IDS.map((id) => property([[id]], [["unit_count"]], fakeInvocation()))),
  );
  IDS.forEach((id, row) => {
    excel.setValues("Model", a1Of(row), opened[row] as number[][]);
    excel.setFormula("Model", a1Of(row), formulaOf(id));
  });
  calculation.on = true;
  controller = new RefreshController(session, excel.excel.run, { now: clock.now, sleep: clock.sleep });
}, 120_000);

afterAll(async () => {
  setCellClock(undefined);
  session.signOut();
  session.useDataOptions({});
  jest.useRealTimers();
  await sandbox.close();
});

describe("a refresh after the day's posting", () => {
  let startedAt: number;
  let before: number;
  let outcome: RefreshOutcome;

  beforeAll(async () => {
    await moveTo(AFTER_POSTING);
    before = sent();
    startedAt = clock.now();
    outcome = await refresh();
  }, 120_000);

  it("serves every cell an answer fetched after it started, however long the live pacing makes it (finding 1)", () => {
    // What each cell's value rests on: an answer fetched since the refresh started, for every row.
    const servedBefore = IDS.map((_, row) => cellAsOf("Model", a1Of(row))?.lines ?? []).filter(
      (lines) => lines.length !== 1 || (lines[0]?.firstStoredAt ?? 0) < startedAt,
    );
    expect(servedBefore).toEqual([]);
    expect(sent() - before).toBe(ROWS);
    expect(shown()).toEqual(expectedValues());
    // And the refresh lasted longer than the fixed window the add-in used to give it.
    expect(calculation.lastSettledAt - startedAt).toBeGreaterThan(OLD_FIXED_WINDOW_MS);
  });

  it("writes its stamp only once the last refreshed cell has settled, and counts what it did (finding 2)", async () => {
    expect(outcome.at).toBeGreaterThanOrEqual(calculation.lastSettledAt);
    // The workbook remembers the counts with the time.
    await expect(controller.lastRefresh()).resolves.toEqual({
      formulas: ROWS,
      at: outcome.at,
      counts: { fresh: ROWS, current: 0, held: 0, failed: 0 },
    });
    expect(outcome.report).toEqual({
      counts: { fresh: ROWS, current: 0, held: 0, failed: 0 },
      reasons: [],
    } satisfies RefreshReport);
    expect(refreshedText(outcome.formulas, outcome.at as number, 0, clock.now(), outcome.report)).toMatch(
      /^Refreshed 60 formulas at \d\d:\d\d: 60 answers fresh, 0 already current, 0 held, 0 failed\.$/,
    );
  });

  it("again before the next posting sends no request and counts every answer already current", async () => {
    const again = sent();
    const second = await refresh();
    expect(sent()).toBe(again);
    expect(second.report?.counts).toEqual({ fresh: 0, current: ROWS, held: 0, failed: 0 });
    expect(second.at).toBeGreaterThanOrEqual(calculation.lastSettledAt);
    expect(shown()).toEqual(expectedValues());
  }, 120_000);

  it("after the next posting asks every answer again", async () => {
    await moveTo(NEXT_POSTING + 60_000);
    const again = sent();
    const third = await refresh();
    expect(sent() - again).toBe(ROWS);
    expect(third.report?.counts).toEqual({ fresh: ROWS, current: 0, held: 0, failed: 0 });
  }, 120_000);

  it("keeps what a cell showed, and says why, when its new answer is held", async () => {
    await moveTo(NEXT_POSTING + 24 * 3_600_000 + 60_000);
    const data = session.requireSignedIn().data;
    const share = data.quota.current.maxShare;
    // The bulk export quota guard now holds every pull: one pull may spend none of the quota.
    data.quota.configure({ maxShare: 0.000_001 });
    try {
      const again = sent();
      const held = await refresh();
      expect(sent()).toBe(again);
      expect(shown()).toEqual(expectedValues());
      expect(held.report).toEqual({
        counts: { fresh: 0, current: 0, held: ROWS, failed: 0 },
        reasons: [{ outcome: "held", reason: expect.stringMatching(/^Held before spending/), answers: ROWS }],
      });
      expect(cellAsOf("Model", a1Of(0))?.lines).toEqual([
        expect.objectContaining({ source: "kept", reason: expect.stringMatching(/^Held before spending/) }),
      ]);
      expect(refreshedText(ROWS, held.at as number, 0, clock.now(), held.report)).toContain(
        `0 already current, ${ROWS} held (${ROWS}: Held before spending`,
      );
    } finally {
      data.quota.configure({ maxShare: share });
    }
  }, 120_000);
});
