import { abortableSleep, type Sleep } from "../data/abortableSleep";
import { pollUntil, type PollOptions } from "../data/pollUntil";
import { countStillCalculating } from "../excel/calculating";
import type { RentFormulaCell } from "../excel/rentFormulas";
import type { ExcelRunner } from "./excelRunner";

export interface SettleTiming {
  now?: () => number;
  sleep?: Sleep;
  /** When the cells are looked at until none is calculating. */
  looks?: Pick<PollOptions<number>, "initialDelayMs" | "maxDelayMs" | "factor">;
  /** However long cells calculate, the wait ends within this and says how many still were. */
  longestWaitMs?: number;
}

/**
 * Each look reads the cells from the workbook (no request to the service). An answer often comes within a
 * fraction of a second, so the first looks come soon; a long wait is looked at once a second.
 */
const LOOKS = { initialDelayMs: 100, factor: 2, maxDelayMs: 1_000 } as const;
/** As long as a cell may wait while its requests move through the pacing (cellCall's longest wait). */
const LONGEST_WAIT_MS = 30 * 60_000;

/**
 * Looks at `cells` in the workbook until `isDone` says so of how many still show #BUSY!, however long that takes
 * (the caller's `isDone` holds the bound); returns that count.
 */
export function watchCells(
  runExcel: ExcelRunner,
  cells: readonly RentFormulaCell[],
  isDone: (stillCalculating: number) => boolean,
  timing: SettleTiming = {},
): Promise<number> {
  return pollUntil(() => runExcel((context) => countStillCalculating(context, cells)), isDone, {
    ...(timing.looks ?? LOOKS),
    sleep: timing.sleep ?? abortableSleep,
  });
}

/** Waits until none of `cells` shows #BUSY! (or the longest wait passed); returns how many still did. */
export function waitUntilSettled(
  runExcel: ExcelRunner,
  cells: readonly RentFormulaCell[],
  timing: SettleTiming = {},
): Promise<number> {
  const now = timing.now ?? Date.now;
  const bound = longestWait(timing);
  const started = now();
  return watchCells(runExcel, cells, (count) => count === 0 || now() - started >= bound, timing);
}

export const longestWait = (timing: SettleTiming): number => timing.longestWaitMs ?? LONGEST_WAIT_MS;
