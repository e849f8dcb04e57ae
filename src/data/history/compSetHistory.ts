import { FLOOR_PLAN_HISTORY_FIGURES } from "../../api/readers/compSetReaders";
import type { AnswerTrail } from "../answerTrail";
import { requestKey } from "../cacheKey";
import type { DataLayer } from "../dataLayer";
import { FLOOR_PLANS } from "../endpoints";
import type { AccountCallOptions } from "../fetched";
import type { CachedValue } from "../responseCache";
import { dayOfInstant, dayOfIso, isoOfDay, type DayRange } from "./historyDays";

/** One floor plan on one collection day: who it is and the figures its history holds. */
export interface PlanDay {
  property_id: unknown;
  property_name: unknown;
  floor_plan: unknown;
  bedroom_count: unknown;
  bathroom_count: unknown;
  [figure: string]: unknown;
}

/** Per ISO day of the range, the plans collected that day (none: the service has no collection that day). */
export type CompSetDays = Map<string, PlanDay[]>;

/** One comp set's days of one month fetched so far. */
type MonthEntry = Record<string, PlanDay[]>;

const ENDPOINT = "/comp_sets/{comp_set_id}/floor_plans";

function isoDaysOf(range: DayRange): string[] {
  return Array.from({ length: range.last - range.first + 1 }, (_, index) => isoOfDay(range.first + index));
}

/**
 * A comp set's floor plan history by day, from the floor plans endpoint's collection-day filters. Finished days
 * are kept for good (history does not change), a day the service had nothing for as well, so the same range
 * again costs no request and a longer one asks only for the days never fetched: one request for the span from
 * the first to the last of them.
 */
export class CompSetHistory {
  constructor(
    private readonly data: DataLayer,
    /** Whose cache this is (the sign-in's owner): part of every key, so a sign-out removes them. */
    private readonly caller: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The first day that has not finished yet: history ends the day before. */
  today(): number {
    return dayOfInstant(this.now());
  }

  /** A comp set's month as the account sees it: one cache entry holding the days of it fetched so far. */
  private monthKey(compSetId: number, accountId: number, month: string): string {
    return requestKey({
      kind: "history",
      caller: this.caller,
      accountId,
      endpoint: ENDPOINT,
      params: { compSetId, month },
    });
  }

  private async months(compSetId: number, range: DayRange, accountId: number) {
    const keys = [...new Set(isoDaysOf(range).map((iso) => iso.slice(0, 7)))].map((month) =>
      this.monthKey(compSetId, accountId, month),
    );
    const found = await this.data.cache.getMany<MonthEntry>(keys);
    return new Map(keys.map((key) => [key, found.get(key)]));
  }

  /**
   * The months the cache held, as answers of the cell's trail: when each was stored and the first and last day
   * of the range it has plans for. Days fetched now are noted by the read that fetches them.
   */
  private noteStored(
    range: DayRange,
    months: Map<string, CachedValue<MonthEntry> | undefined>,
    trail: AnswerTrail,
  ): void {
    const isoDays = isoDaysOf(range);
    for (const [key, entry] of months) {
      if (!entry) continue;
      const days = isoDays.filter((iso) => (entry.value[iso]?.length ?? 0) > 0);
      trail.note(key, {
        kind: "history",
        source: "cache",
        storedAt: entry.storedAt,
        freshUntil: this.data.cache.freshUntil(key, entry.storedAt),
        dataDate: days[0],
        lastDataDate: days[days.length - 1],
      });
    }
  }

  async days(compSetId: number, range: DayRange, options: AccountCallOptions): Promise<CompSetDays> {
    const keyOf = (iso: string) => this.monthKey(compSetId, options.accountId, iso.slice(0, 7));
    const stored = await this.months(compSetId, range, options.accountId);
    if (options.trail) this.noteStored(range, stored, options.trail);
    let months = new Map([...stored].map(([key, entry]) => [key, entry?.value]));
    const missing = isoDaysOf(range).filter((iso) => months.get(keyOf(iso))?.[iso] === undefined);
    if (missing.length > 0) {
      const span = { first: missing[0] as string, last: missing[missing.length - 1] as string };
      const rows = (
        await this.data.read(
          FLOOR_PLANS,
          {
            compSetId,
            filters: { "filter[collected_at_gte]": span.first, "filter[collected_at_lte]": span.last },
          },
          options,
        )
      ).value;
      const byDay = new Map<string, PlanDay[]>();
      for (const row of rows) {
        const iso = String(row.collected_at).slice(0, 10);
        const day: PlanDay = {
          property_id: row.property_id,
          property_name: row.property_name,
          floor_plan: row.name,
          bedroom_count: row.bedroom_count,
          bathroom_count: row.bathroom_count,
        };
        for (const figure of FLOOR_PLAN_HISTORY_FIGURES) day[figure] = row[figure] ?? null;
        byDay.set(iso, [...(byDay.get(iso) ?? []), day]);
      }
      // Every day of the span is kept, with its plans or none: a day the service lacks is known to lack them.
      const merged = new Map<string, MonthEntry>();
      for (const iso of isoDaysOf({ first: dayOfIso(span.first), last: dayOfIso(span.last) })) {
        const key = keyOf(iso);
        let month = merged.get(key);
        if (!month) merged.set(key, (month = { ...months.get(key) }));
        month[iso] = byDay.get(iso) ?? [];
      }
      await this.data.cache.setMany([...merged].map(([key, value]) => ({ key, value })));
      months = new Map([...months, ...merged]);
    }
    return new Map(isoDaysOf(range).map((iso) => [iso, months.get(keyOf(iso))?.[iso] ?? []]));
  }
}
