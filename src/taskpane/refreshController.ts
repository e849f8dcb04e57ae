import type { DataLayerStats } from "../data/dataLayer";
import type { RefreshReport } from "../data/refreshPass";
import { cellAddress } from "../excel/a1";
import type { FormulaScope } from "../excel/formulaScope";
import { refreshRentFormulas } from "../excel/refresh";
import { readLastRefresh, rememberLastRefresh, type LastRefresh } from "../excel/workbookMemory";
import { cellsWaiting } from "../functions/cellCall";
import { endRefresh, startRefresh, type CellRefresh } from "../functions/freshness";
import type { Session } from "../session/session";
import type { ExcelRunner } from "./excelRunner";
import { longestWait, watchCells, type SettleTiming } from "./settledCells";

/** When the refreshed cells are looked at, and the longest a refresh waits for them. */
export type RefreshTiming = SettleTiming;

export interface RefreshOutcome {
  /** RENT formulas sent to recalculate. */
  formulas: number;
  /** Epoch ms when the last of them answered (or the wait ended); undefined when there was nothing to refresh. */
  at?: number;
  /** Formulas still calculating when the wait ended. */
  stillCalculating: number;
  /** What the refresh made of each answer its formulas needed: fresh, already current, held, failed. */
  report?: RefreshReport;
}

/**
 * A refreshed formula Excel never calls (its RENT call sits in a branch not taken) would hold the refresh open:
 * once no cell has calculated or waited for this long, the refresh ends without it.
 */
const QUIET_MS = 5_000;

/**
 * "Refresh": recalculates the RENT formulas of the workbook, the sheet or the selection with fresh data (a cell
 * is served a cached answer only when it was fetched since the refresh began or nothing could have changed
 * since), waits until the last of them has settled, and only then has the workbook remember when; also the
 * cache's figures and reset.
 */
export class RefreshController {
  private readonly now: () => number;
  private readonly longestWaitMs: number;

  constructor(
    private readonly session: Session,
    private readonly runExcel: ExcelRunner,
    private readonly timing: RefreshTiming = {},
  ) {
    this.now = timing.now ?? Date.now;
    this.longestWaitMs = longestWait(timing);
  }

  /**
   * Re-enters the formulas, tells `onStarted` how many, and ends once every one of them has settled (or the
   * longest wait passed); the stamp and the report are made then.
   */
  async refresh(scope: FormulaScope, onStarted?: (formulas: number) => void): Promise<RefreshOutcome> {
    let refresh: CellRefresh | undefined;
    const { cells } = await this.runExcel((context) =>
      refreshRentFormulas(context, scope, {
        beforeRecalculate: (found) => {
          const refreshed = found.map((cell) => ({
            sheetName: cell.sheetName,
            a1: cellAddress(cell.row, cell.column),
          }));
          refresh = startRefresh(refreshed, this.now());
        },
      }),
    );
    if (cells.length === 0 || !refresh) return { formulas: 0, stillCalculating: 0 };
    const running = refresh;
    onStarted?.(cells.length);
    try {
      const stillCalculating = await watchCells(this.runExcel, cells, this.endOf(running), this.timing);
      const at = this.now();
      const report = running.pass.report();
      await this.runExcel((context) =>
        rememberLastRefresh(context, { at, formulas: cells.length, counts: report.counts }),
      );
      return { formulas: cells.length, at, stillCalculating, report };
    } finally {
      endRefresh(running);
    }
  }

  /**
   * Whether a refresh is over, at each look: every refreshed formula has settled, or the longest wait passed, or
   * nothing has calculated for a while (formulas Excel does not call).
   */
  private endOf(refresh: CellRefresh): (busy: number) => boolean {
    let quiet: { since: number; waiting: number } | undefined;
    return (busy) => {
      // Every call has settled in the runtime, and Excel shows each answer (a look taken just before the last
      // call ended may still have seen it calculating: look once more rather than stamp it as still calculating).
      if (refresh.waiting === 0 && busy === 0) return true;
      const now = this.now();
      if (now - refresh.startedAt >= this.longestWaitMs) return true;
      if (busy > 0 || cellsWaiting() > 0) quiet = undefined;
      else if (quiet?.waiting !== refresh.waiting) quiet = { since: now, waiting: refresh.waiting };
      else return now - quiet.since >= QUIET_MS;
      return false;
    };
  }

  /** The last refresh this workbook remembers (saved in it, so it survives a reload). */
  lastRefresh(): Promise<LastRefresh | undefined> {
    return this.runExcel(readLastRefresh);
  }

  stats(): Promise<DataLayerStats> {
    return this.session.requireSignedIn().data.stats();
  }

  /** Forgets every cached answer of this sign-in, in memory and in this computer's storage. */
  clearCache(): Promise<void> {
    return this.session.requireSignedIn().data.clearCache();
  }
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The cache and request figures as short lines for the pane. */
export function statsLines(stats: DataLayerStats): string[] {
  const { cache, requests } = stats;
  const lookups = cache.hits + cache.misses;
  const where = cache.persistent ? "kept on this computer" : "in memory only";
  return [
    `Cache: ${cache.entries} ${cache.entries === 1 ? "answer" : "answers"}, ${size(cache.bytes)} (${where}).`,
    lookups === 0
      ? "Hit rate: no lookups yet."
      : `Hit rate: ${Math.round(cache.hitRate * 100)} % (${cache.hits} of ${lookups} from the cache).`,
    `Requests: ${requests.attempts} sent, ${requests.retries} retried, ${requests.coalesced} shared with an identical one.`,
  ];
}
