import type { DataLayerStats } from "../data/dataLayer";
import type { FormulaScope } from "../excel/formulaScope";
import { refreshRentFormulas } from "../excel/refresh";
import { requestFreshData } from "../functions/freshness";
import type { Session } from "../session/session";
import type { ExcelRunner } from "./excelRunner";

/**
 * "Refresh": recalculates the RENT formulas of the workbook, the sheet or the selection with fresh data (the
 * cells recalculated accept only answers fetched since the refresh began), and the cache's figures and reset.
 */
export class RefreshController {
  constructor(
    private readonly session: Session,
    private readonly runExcel: ExcelRunner,
  ) {}

  /** How many RENT formulas were sent to recalculate. */
  async refresh(scope: FormulaScope): Promise<number> {
    const { cells } = await this.runExcel((context) =>
      refreshRentFormulas(context, scope, { beforeRecalculate: () => requestFreshData() }),
    );
    return cells.length;
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
