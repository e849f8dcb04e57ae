import { dayOfIso, isoOfDay } from "../../../src/data/history/historyDays";
import { aggregate, historyTable, periodsOf } from "../../../src/functions/shape/historyTable";
import { compSetHistoryTable } from "../../../src/functions/shape/compSetHistoryTable";
import type { PlanDay } from "../../../src/data/history/compSetHistory";

const range = (first: string, last: string) => ({ first: dayOfIso(first), last: dayOfIso(last) });
const isoPeriods = (periods: { first: number; last: number }[]) =>
  periods.map((period) => [isoOfDay(period.first), isoOfDay(period.last)]);

describe("periodsOf", () => {
  it("cuts quarters at January, April, July and October, clipped to the range", () => {
    expect(isoPeriods(periodsOf(range("2025-12-15", "2026-07-02"), "quarter"))).toEqual([
      ["2025-12-15", "2025-12-31"],
      ["2026-01-01", "2026-03-31"],
      ["2026-04-01", "2026-06-30"],
      ["2026-07-01", "2026-07-02"],
    ]);
  });

  it("cuts months at their first day and weeks at Monday", () => {
    expect(isoPeriods(periodsOf(range("2026-01-30", "2026-02-02"), "month"))).toEqual([
      ["2026-01-30", "2026-01-31"],
      ["2026-02-01", "2026-02-02"],
    ]);
    // 2026-03-02 is a Monday.
    expect(isoPeriods(periodsOf(range("2026-02-28", "2026-03-09"), "week"))).toEqual([
      ["2026-02-28", "2026-03-01"],
      ["2026-03-02", "2026-03-08"],
      ["2026-03-09", "2026-03-09"],
    ]);
    expect(periodsOf(range("2026-03-01", "2026-03-03"), "day")).toHaveLength(3);
  });
});

describe("aggregate", () => {
  it("averages only the days that have a value", () => {
    expect(aggregate([10, null, 20, undefined, "", 30], "average")).toBe(20);
    expect(aggregate([null, null], "average")).toBeNull();
  });

  it("sums, takes the least, the most, the first and the last of the days with a value", () => {
    const days = [null, 4, 9, null, 2, null];
    expect(aggregate(days, "sum")).toBe(15);
    expect(aggregate(days, "min")).toBe(2);
    expect(aggregate(days, "max")).toBe(9);
    expect(aggregate(days, "first")).toBe(4);
    expect(aggregate(days, "last")).toBe(2);
  });

  it("takes the last of values that are not all numbers, whatever the aggregation", () => {
    expect(aggregate(["Class B", null, "Class A", null], "average")).toBe("Class A");
  });
});

describe("historyTable by quarter", () => {
  it("gives one row per property and quarter, dated by the quarter's last day in the range, averaging days with a value", () => {
    const asked = range("2026-03-30", "2026-04-02");
    // Four days: two in Q1, two in Q2; the second day has no row, the fourth a row without the field.
    const days = [{ avg_rent: 1500 }, null, { avg_rent: 1600 }, { avg_rent: null }];
    const table = historyTable(new Map([[100001, days]]), asked, ["avg_rent"], "quarter", "average");
    expect(table).toEqual({
      columns: ["date", "id", "avg_rent"],
      rows: [
        ["2026-03-31", 100001, 1500],
        ["2026-04-02", 100001, 1600],
      ],
    });
  });
});

describe("compSetHistoryTable by quarter", () => {
  const plan = (asking_rent: number | null): PlanDay => ({
    property_id: 100001,
    property_name: "Mill Creek",
    floor_plan: "A1",
    bedroom_count: 1,
    bathroom_count: 1,
    asking_rent,
  });

  it("averages a plan's collection days with a value per quarter", () => {
    const days = new Map([
      ["2026-03-30", [plan(1500)]],
      ["2026-03-31", [plan(null)]],
      ["2026-04-01", [plan(1600)]],
      ["2026-04-02", [plan(1700)]],
    ]);
    const table = compSetHistoryTable(
      days,
      range("2026-03-30", "2026-04-02"),
      ["asking_rent"],
      "quarter",
      "average",
    );
    expect(table.rows).toEqual([
      ["2026-03-31", 100001, "Mill Creek", "A1", 1, 1, 1500],
      ["2026-04-02", 100001, "Mill Creek", "A1", 1, 1, 1650],
    ]);
    expect(table.columns[0]).toBe("date");
  });
});
