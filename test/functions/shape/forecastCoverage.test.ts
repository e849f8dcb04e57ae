import { FORECAST_WINDOW_MONTHS } from "../../../src/api/contractLimits";
import { answeredMonths } from "../../../src/functions/shape/forecastCoverage";

/** A month as answeredMonths counts it: January 2026 is 2026 * 12. */
const month = (year: number, januaryIsOne: number) => year * 12 + januaryIsOne - 1;

describe("answeredMonths", () => {
  // The answer arrived on 2026-11-28 (UTC): its window starts in November 2026.
  const storedAt = Date.parse("2026-11-28T15:00:00Z");

  it("starts at the month the answer arrived and runs the contract's window", () => {
    expect(answeredMonths(storedAt, undefined, undefined)).toEqual({
      first: month(2026, 11),
      last: month(2026, 11) + FORECAST_WINDOW_MONTHS - 1,
    });
  });

  it("starts at a start on a month's first day, and at the next month for any later day (points are on the 1st)", () => {
    expect(answeredMonths(storedAt, "2027-03-01", undefined).first).toBe(month(2027, 3));
    expect(answeredMonths(storedAt, "2027-03-02", undefined).first).toBe(month(2027, 4));
    expect(answeredMonths(storedAt, "2027-03-31", undefined).first).toBe(month(2027, 4));
  });

  it("never starts before its window or ends after it, and ends at the end's month", () => {
    expect(answeredMonths(storedAt, "2026-01-01", "2027-06-15")).toEqual({
      first: month(2026, 11),
      last: month(2027, 6),
    });
    expect(answeredMonths(storedAt, undefined, "2099-01-01").last).toBe(
      month(2026, 11) + FORECAST_WINDOW_MONTHS - 1,
    );
  });
});
