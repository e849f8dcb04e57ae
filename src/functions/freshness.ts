/**
 * The pane's "Refresh" must bypass the cache for the cells it recalculates, while an ordinary recalculation
 * is served from the cache. The pane opens a short window before asking Excel to recalculate; every cell
 * computed inside it asks the data layer for fresh data (identical requests still share one call).
 */
let freshUntil = 0;

export function requestFreshData(windowMs = 30_000, now: number = Date.now()): void {
  freshUntil = now + windowMs;
}

export function endFreshData(): void {
  freshUntil = 0;
}

export function isFreshDataRequested(now: number = Date.now()): boolean {
  return now < freshUntil;
}
