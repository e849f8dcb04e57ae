/**
 * When cached answers can change, from the contract's x-freshness: the daily posting at 07:00 US Eastern (in
 * daylight saving time 11:00 UTC, in standard time 12:00 UTC), the forecast's month, lists with no schedule, and
 * history days that never change.
 */
import { FRESHNESS_BY_KIND } from "../../src/data/cachePolicy";
import { FreshnessSchedule, parsePostingTime } from "../../src/data/freshnessSchedule";
import { ResponseCache } from "../../src/data/responseCache";
import { requestKey } from "../../src/data/cacheKey";

const at = (iso: string) => Date.parse(iso);
const schedule = new FreshnessSchedule();

describe("the daily posting, 07:00 US Eastern", () => {
  it("is 11:00 UTC on a day of daylight saving time (EDT)", () => {
    expect(schedule.latestPostingAtOrBefore(at("2026-07-15T11:00:00Z"))).toBe(at("2026-07-15T11:00:00Z"));
    expect(schedule.latestPostingAtOrBefore(at("2026-07-15T10:59:59Z"))).toBe(at("2026-07-14T11:00:00Z"));
    expect(schedule.nextPostingAfter(at("2026-07-15T11:00:00Z"))).toBe(at("2026-07-16T11:00:00Z"));
  });

  it("is 12:00 UTC on a day of standard time (EST)", () => {
    expect(schedule.latestPostingAtOrBefore(at("2026-01-15T11:30:00Z"))).toBe(at("2026-01-14T12:00:00Z"));
    expect(schedule.latestPostingAtOrBefore(at("2026-01-15T12:00:00Z"))).toBe(at("2026-01-15T12:00:00Z"));
    // Just after midnight UTC it is still the evening before in New York.
    expect(schedule.latestPostingAtOrBefore(at("2026-01-16T02:00:00Z"))).toBe(at("2026-01-15T12:00:00Z"));
  });

  it("follows the change of clocks: the posting after the spring and autumn changes", () => {
    // Clocks go forward on 2026-03-08 and back on 2026-11-01 in New York.
    expect(schedule.nextPostingAfter(at("2026-03-07T13:00:00Z"))).toBe(at("2026-03-08T11:00:00Z"));
    expect(schedule.nextPostingAfter(at("2026-10-31T12:00:00Z"))).toBe(at("2026-11-01T12:00:00Z"));
  });

  it("moves with the posting time setting", () => {
    const later = new FreshnessSchedule("09:30");
    expect(later.latestPostingAtOrBefore(at("2026-07-15T13:00:00Z"))).toBe(at("2026-07-14T13:30:00Z"));
    expect(later.latestPostingAtOrBefore(at("2026-07-15T13:30:00Z"))).toBe(at("2026-07-15T13:30:00Z"));
    expect(() => parsePostingTime("7am")).toThrow(/HH:MM/);
    expect(() => new FreshnessSchedule("25:00")).toThrow(/HH:MM/);
  });
});

describe("what could have changed", () => {
  const fetched = at("2026-07-15T12:00:00Z"); // 08:00 EDT, after that day's posting

  it("market and property answers: nothing until the next posting, then everything", () => {
    for (const kind of ["property", "market"] as const) {
      expect(schedule.freshUntil(kind, fetched)).toBe(at("2026-07-16T11:00:00Z"));
      expect(schedule.couldHaveChanged(kind, fetched, at("2026-07-16T10:59:00Z"))).toBe(false);
      expect(schedule.couldHaveChanged(kind, fetched, at("2026-07-16T11:00:00Z"))).toBe(true);
    }
  });

  it("forecasts: also at the start of a month, their window's first month", () => {
    const lateInMonth = at("2026-07-31T23:00:00Z"); // 19:00 EDT on the 31st
    expect(schedule.freshUntil("forecast", lateInMonth)).toBe(at("2026-08-01T04:00:00Z"));
    expect(schedule.freshUntil("forecast", fetched)).toBe(at("2026-07-16T11:00:00Z"));
  });

  it("lists with no schedule: served for their lifetime, asked again by every refresh", () => {
    expect(FRESHNESS_BY_KIND.comp_sets.changes).toEqual(["any_time"]);
    expect(schedule.freshUntil("comp_sets", fetched)).toBe(fetched + 60 * 60_000);
    expect(schedule.couldHaveChanged("comp_sets", fetched, fetched + 1)).toBe(true);
  });

  it("a finished history day: never", () => {
    expect(schedule.freshUntil("history", fetched)).toBe(Number.POSITIVE_INFINITY);
    expect(schedule.couldHaveChanged("history", fetched, at("2030-01-01T00:00:00Z"))).toBe(false);
  });

  it("is what the cache serves by: fresh until the next posting at the time set", async () => {
    let now = at("2026-07-15T14:00:00Z"); // 10:00 EDT, after that day's 09:00 posting
    const cache = new ResponseCache({ now: () => now, schedule: new FreshnessSchedule("09:00") });
    const key = requestKey({ kind: "market", caller: "c", accountId: 1, endpoint: "/x", params: {} });
    await cache.setMany([{ key, value: 1 }]);
    now = at("2026-07-16T12:59:00Z"); // 08:59 EDT: the 09:00 posting has not come
    expect((await cache.get(key))?.fresh).toBe(true);
    now = at("2026-07-16T13:00:00Z");
    expect((await cache.get(key))?.fresh).toBe(false);
  });
});
