/**
 * The schedule remembers the last posting period and month it looked up; an instant on the edge of that period
 * must still be answered as the clock says, not as the remembered period.
 */
import { FreshnessSchedule } from "../../src/data/freshnessSchedule";

const at = (iso: string) => Date.parse(iso);

describe("FreshnessSchedule's remembered periods", () => {
  it("answers an answer fetched at the very posting with the next day's posting, after one fetched before it", () => {
    const schedule = new FreshnessSchedule();
    expect(schedule.nextPostingAfter(at("2026-07-15T10:00:00Z"))).toBe(at("2026-07-15T11:00:00Z"));
    expect(schedule.nextPostingAfter(at("2026-07-15T11:00:00Z"))).toBe(at("2026-07-16T11:00:00Z"));
    expect(schedule.nextPostingAfter(at("2026-07-15T10:59:59Z"))).toBe(at("2026-07-15T11:00:00Z"));
  });

  it("answers an answer fetched at the very start of a month with the next month's start, after one fetched before it", () => {
    const schedule = new FreshnessSchedule();
    // Midnight US Eastern: 04:00 UTC in daylight saving time.
    expect(schedule.nextMonthStartAfter(at("2026-06-20T12:00:00Z"))).toBe(at("2026-07-01T04:00:00Z"));
    expect(schedule.nextMonthStartAfter(at("2026-07-01T04:00:00Z"))).toBe(at("2026-08-01T04:00:00Z"));
  });
});
