import type { ContractFreshness } from "../api/contractOperations";
import { FRESHNESS_BY_KIND, type CacheKind } from "./cachePolicy";

/** The service's clock: it posts each day's data at a wall time in US Eastern (api-notes third pass, Schedule). */
export const SERVICE_TIME_ZONE = "America/New_York";

/** When the service posts each day's data, "HH:MM" in US Eastern, until the vendor moves it (a setting). */
export const DEFAULT_POSTING_TIME = "07:00";

const POSTING_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** "07:00" as hour and minute; throws with a message a person can act on for anything else. */
export function parsePostingTime(text: string): { hour: number; minute: number } {
  const match = POSTING_TIME.exec(text.trim());
  if (!match) throw new Error(`The posting time must be written HH:MM (24-hour, US Eastern), not "${text}".`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

// Intl knows the zone's rules (daylight saving included): no table of our own to go stale.
const WALL_CLOCK = new Intl.DateTimeFormat("en-US", {
  timeZone: SERVICE_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

function wallTimeAt(epochMs: number): WallTime {
  const parts: Record<string, number> = {};
  for (const part of WALL_CLOCK.formatToParts(epochMs))
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  return parts as unknown as WallTime;
}

/** How far the zone's wall clock is ahead of UTC at `epochMs` (negative in the Americas). */
function offsetAt(epochMs: number): number {
  const wall = wallTimeAt(epochMs);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - (epochMs - (((epochMs % 1000) + 1000) % 1000));
}

/** The instant the zone's clock shows this date and time (days past a month's end roll over, as Date.UTC does). */
function instantOf(year: number, month: number, day: number, hour: number, minute: number): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const first = asUtc - offsetAt(asUtc);
  // Near a change of offset the first guess reads the other side's offset: read it again where it landed.
  return asUtc - offsetAt(first);
}

/**
 * When answers of each cache kind can change, from the contract's `x-freshness`: the service's daily posting
 * (at a time that is a setting), the start of a month, a lifetime for what has no schedule, or never.
 */
export class FreshnessSchedule {
  private readonly hour: number;
  private readonly minute: number;
  /**
   * The last posting period and month looked up: a cache lookup asks for every answer it holds, nearly all
   * fetched within the same day, and reading the zone's clock costs more than the lookup.
   */
  private postingPeriod = { from: 0, to: 0 };
  private monthPeriod = { from: 0, to: 0 };

  constructor(
    readonly postingTime: string = DEFAULT_POSTING_TIME,
    private readonly byKind: Readonly<Record<CacheKind, ContractFreshness>> = FRESHNESS_BY_KIND,
  ) {
    ({ hour: this.hour, minute: this.minute } = parsePostingTime(postingTime));
  }

  /** The latest daily posting at or before `nowMs`. */
  latestPostingAtOrBefore(nowMs: number): number {
    const today = wallTimeAt(nowMs);
    const posting = instantOf(today.year, today.month, today.day, this.hour, this.minute);
    if (posting <= nowMs) return posting;
    return instantOf(today.year, today.month, today.day - 1, this.hour, this.minute);
  }

  /** The first daily posting after `epochMs`. */
  nextPostingAfter(epochMs: number): number {
    const known = this.postingPeriod;
    if (known.from <= epochMs && epochMs < known.to) return known.to;
    const from = this.latestPostingAtOrBefore(epochMs);
    const day = wallTimeAt(from);
    this.postingPeriod = { from, to: instantOf(day.year, day.month, day.day + 1, this.hour, this.minute) };
    return this.postingPeriod.to;
  }

  /** The first day of the month after the one `epochMs` falls in, at midnight US Eastern. */
  nextMonthStartAfter(epochMs: number): number {
    const known = this.monthPeriod;
    if (known.from <= epochMs && epochMs < known.to) return known.to;
    const wall = wallTimeAt(epochMs);
    this.monthPeriod = {
      from: instantOf(wall.year, wall.month, 1, 0, 0),
      to: instantOf(wall.year, wall.month + 1, 1, 0, 0),
    };
    return this.monthPeriod.to;
  }

  /** Until when an answer of `kind` fetched at `fetchedAt` is what the service has (Infinity: for good). */
  freshUntil(kind: CacheKind, fetchedAt: number): number {
    const freshness = this.byKind[kind];
    let until = Number.POSITIVE_INFINITY;
    for (const event of freshness.changes) {
      if (event === "daily_posting") until = Math.min(until, this.nextPostingAfter(fetchedAt));
      else if (event === "month_start") until = Math.min(until, this.nextMonthStartAfter(fetchedAt));
      else if (event === "any_time")
        until = Math.min(until, fetchedAt + (freshness.maxAgeMinutes ?? 0) * 60_000);
    }
    return until;
  }

  /**
   * Whether the service may answer differently at `nowMs` than it did at `fetchedAt`: a posting or a new month
   * since, or, for what has no schedule, any time at all (a refresh asks it again).
   */
  couldHaveChanged(kind: CacheKind, fetchedAt: number, nowMs: number): boolean {
    if (this.byKind[kind].changes.includes("any_time")) return true;
    return nowMs >= this.freshUntil(kind, fetchedAt);
  }
}
