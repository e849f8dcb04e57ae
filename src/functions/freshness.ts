/**
 * The pane's "Refresh" must bypass the cache for the cells it recalculates, while an ordinary recalculation
 * is served from the cache. The pane starts a refresh before asking Excel to recalculate; cells computed
 * while it lasts accept only answers stored since it started, so each distinct request goes to the service
 * once per refresh and every later cell of the refresh is served what that request stored.
 */
interface Refresh {
  startedAt: number;
  endsAt: number;
}

let current: Refresh | undefined;

export function requestFreshData(windowMs = 30_000, now: number = Date.now()): void {
  current = { startedAt: now, endsAt: now + windowMs };
}

export function endFreshData(): void {
  current = undefined;
}

/** The instant answers must be newer than, while a refresh lasts; undefined otherwise. */
export function freshSince(now: number = Date.now()): number | undefined {
  return current && now < current.endsAt ? current.startedAt : undefined;
}
