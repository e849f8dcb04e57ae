/** Days as whole numbers since 1970-01-01 (UTC): ranges, keys and periods of RENT.HISTORY count in them. */
export const DAY_MS = 86_400_000;

export function dayOfIso(iso: string): number {
  return Math.floor(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY_MS);
}

export function isoOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The day an instant falls on (UTC, the service's collection days). */
export function dayOfInstant(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS);
}

/** An inclusive range of days. */
export interface DayRange {
  first: number;
  last: number;
}

/** The range cut into pieces of at most `maxDays` days, in order. */
export function splitRange(range: DayRange, maxDays: number): DayRange[] {
  const pieces: DayRange[] = [];
  for (let first = range.first; first <= range.last; first += maxDays)
    pieces.push({ first, last: Math.min(range.last, first + maxDays - 1) });
  return pieces;
}
