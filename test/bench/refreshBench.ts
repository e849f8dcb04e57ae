/**
 * "Refresh with fresh data" of the reference workbook under the live budget (100 requests per 300 s, enforced by
 * the sandbox, and the add-in's live pacing), on a moving clock: every clock (the sandbox's window, the pacing,
 * the cells' bounds) reads one clock the benchmark moves, so the refresh's time at the live pace costs seconds.
 *
 * The workbook is calculated before the day's posting (07:00 US Eastern), then refreshed after it (everything
 * asked again), then refreshed again the same morning (nothing could have changed: nothing asked). Every cell
 * of a refresh is called at once, as Excel calls the re-entered formulas.
 */
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { FreshnessSchedule } from "../../src/data/freshnessSchedule";
import type { RefreshReport } from "../../src/data/refreshPass";
import { cellAsOf } from "../../src/functions/cellAsOf";
import { setCellClock } from "../../src/functions/cellCall";
import { endRefresh, startRefresh } from "../../src/functions/freshness";
import { session } from "../../src/session/session";
import { cellClockOn, MovingClock, realTurns } from "../relay/support/movingClock";
import { untilAnswered } from "../support/addinOnMovingClock";
import { WORKBOOK_CLIENT, type Workbook } from "./referenceWorkbook";
import { dataRequests, difference, TOKEN_PATH, watchTraffic } from "./sandboxTraffic";
import { evaluateWorkbook } from "./workbookRunner";

export interface RefreshFigures {
  /** Answers a refresh after the posting served from before that posting without saying so (goal 0). */
  refresh_served_stale: number;
  /** Requests of a refresh after the day's posting (goal: at most the floor). */
  refresh_requests_after_posting: number;
  /** Requests of a second refresh the same morning, before the next posting (goal 0). */
  refresh_requests_same_day: number;
  /** The refresh after the posting, from its start until its last cell settled, at the live pace. */
  refresh_live_ms: number;
}

/** Fine enough that the figure is the pace, not the step. */
const STEP_MS = 100;
const LIVE_LIMIT = { requests: 100, windowSeconds: 300 };
// Tuesday 2026-11-24: opened at 06:30 US Eastern (EST), refreshed at 07:05 and again at 07:40.
const OPENED = Date.parse("2026-11-24T11:30:00Z");
const AFTER_POSTING = Date.parse("2026-11-24T12:05:00Z");
const SAME_MORNING = Date.parse("2026-11-24T12:40:00Z");

/** The cell addresses the runner gives the workbook's cells (workbookRunner: `Model!R<n>`). */
const cellsOf = (workbook: Workbook) =>
  workbook.cells.map((_, index) => ({ sheetName: "Model", a1: `R${index + 1}` }));

/** Answers the cells rested on that were fetched before `posting` and served as if current. */
function servedStale(workbook: Workbook, posting: number): number {
  let stale = 0;
  for (const { sheetName, a1 } of cellsOf(workbook))
    for (const line of cellAsOf(sheetName, a1)?.lines ?? [])
      if (line.source === "cache" && line.firstStoredAt < posting) stale += line.answers;
  return stale;
}

export async function measureRefresh(
  workbookOf: (sandbox: RunningSandbox) => Workbook,
): Promise<{ figures: RefreshFigures; reports: RefreshReport[] }> {
  const clock = new MovingClock(OPENED);
  const sandbox = await startSandbox({
    port: 0,
    rateLimit: LIVE_LIMIT.requests,
    rateLimitWindowSeconds: LIVE_LIMIT.windowSeconds,
    now: OPENED,
  });
  const traffic = watchTraffic(sandbox);
  const moveTo = async (instant: number) => {
    await clock.advance(instant - clock.now());
    sandbox.clock.set(clock.now());
  };
  /** Moves the clock step by step until `work` settles; the sandbox's work between steps takes real time only. */
  const whileClockMoves = async <T>(work: Promise<T>): Promise<T> => {
    let settled = false;
    work.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (;;) {
      await untilAnswered(realTurns);
      if (settled) return work;
      await moveTo(clock.now() + STEP_MS);
    }
  };
  const workbook = workbookOf(sandbox);
  /** A refresh of every cell, called at once: its requests, its report and how long it took on the clock. */
  const refresh = async () => {
    const before = traffic.snapshot().requests;
    const started = clock.now();
    const running = startRefresh(cellsOf(workbook), started);
    try {
      await whileClockMoves(evaluateWorkbook(workbook.cells));
      const requests = dataRequests(difference(before, traffic.snapshot().requests));
      return { requests, ms: running.lastSettled - started, report: running.pass.report() };
    } finally {
      endRefresh(running);
    }
  };
  try {
    session.useDataOptions({
      now: clock.now,
      sleep: clock.sleep,
      databaseName: `refresh-bench-${process.pid}`,
    });
    setCellClock(cellClockOn(clock));
    await session.signIn(
      { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}${TOKEN_PATH}` },
      { kind: "client", ...WORKBOOK_CLIENT },
    );
    await whileClockMoves(evaluateWorkbook(workbook.cells));
    await moveTo(AFTER_POSTING);
    const afterPosting = await refresh();
    const stale = servedStale(workbook, new FreshnessSchedule().latestPostingAtOrBefore(AFTER_POSTING));
    await moveTo(SAME_MORNING);
    const sameDay = await refresh();
    return {
      figures: {
        refresh_served_stale: stale,
        refresh_requests_after_posting: afterPosting.requests,
        refresh_requests_same_day: sameDay.requests,
        refresh_live_ms: afterPosting.ms,
      },
      reports: [afterPosting.report, sameDay.report],
    };
  } finally {
    setCellClock(undefined);
    session.signOut();
    session.useDataOptions({});
    await sandbox.close();
  }
}
