import { RefreshPass } from "../data/refreshPass";
import { cellKey, cellKeyOf } from "./cellAsOf";

/**
 * The pane's "Refresh with fresh data" as the cells see it: one refresh at a time, from when the pane starts it
 * until the pane ends it, however long the pacing makes it. A cell called meanwhile reads through it (a cached
 * answer serves only when fetched since it started or when nothing could have changed since it was fetched), and
 * it learns when each of its cells has settled, so that the pane stamps it only after the last one.
 */
export class CellRefresh {
  readonly pass: RefreshPass;
  /** The refreshed cells that have not ended a call since the refresh started. */
  private readonly unsettled: Set<string>;
  private lastSettledAt: number;

  constructor(
    /** Each refreshed formula's cell. */
    cells: readonly { sheetName: string; a1: string }[],
    readonly startedAt: number,
  ) {
    this.pass = new RefreshPass(startedAt);
    this.unsettled = new Set(cells.map((cell) => cellKey(cell.sheetName, cell.a1)));
    this.lastSettledAt = startedAt;
  }

  /** A cell's call ended (with a value or an error); `address` as Excel gives a call's ("Sheet1!B2"). */
  settled(address: string, atMs: number): void {
    if (this.unsettled.delete(cellKeyOf(address))) this.lastSettledAt = Math.max(this.lastSettledAt, atMs);
  }

  /** Refreshed cells whose call has not ended since the refresh started. */
  get waiting(): number {
    return this.unsettled.size;
  }

  /** When the last refreshed cell so far ended its call (the refresh's start before any did). */
  get lastSettled(): number {
    return this.lastSettledAt;
  }
}

let current: CellRefresh | undefined;

/** Starts a refresh of `cells` (it replaces one still under way, whose cells are recalculated again). */
export function startRefresh(
  cells: readonly { sheetName: string; a1: string }[],
  nowMs: number,
): CellRefresh {
  current = new CellRefresh(cells, nowMs);
  return current;
}

/** Ends `refresh` (only it: a newer one started since goes on). */
export function endRefresh(refresh: CellRefresh | undefined = current): void {
  if (current === refresh) current = undefined;
}

/** The refresh a cell called now belongs to, if one is under way. */
export function currentRefresh(): RefreshPass | undefined {
  return current?.pass;
}

/** The refresh a cell's call starts under: it tells that refresh when it ends (a call started before counts for none). */
export function currentCellRefresh(): CellRefresh | undefined {
  return current;
}
