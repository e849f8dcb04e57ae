import { dayOfInstant, dayOfIso, isoOfDay, splitRange } from "../../src/data/history/historyDays";

describe("splitRange", () => {
  it("cuts a range into pieces of at most the given days, in order, each day in one piece", () => {
    expect(splitRange({ first: 0, last: 9 }, 4)).toEqual([
      { first: 0, last: 3 },
      { first: 4, last: 7 },
      { first: 8, last: 9 },
    ]);
    expect(splitRange({ first: 5, last: 8 }, 4)).toEqual([{ first: 5, last: 8 }]);
    expect(splitRange({ first: 5, last: 5 }, 4)).toEqual([{ first: 5, last: 5 }]);
  });
});

describe("days", () => {
  it("count from 1970-01-01 in UTC, both ways", () => {
    expect(dayOfIso("1970-01-02")).toBe(1);
    expect(isoOfDay(dayOfIso("2026-03-15"))).toBe("2026-03-15");
    expect(dayOfIso("2026-03-15T23:59:59Z")).toBe(dayOfIso("2026-03-15"));
    expect(dayOfInstant(Date.parse("2026-03-15T23:59:59.999Z"))).toBe(dayOfIso("2026-03-15"));
    expect(dayOfInstant(Date.parse("2026-03-16T00:00:00Z"))).toBe(dayOfIso("2026-03-16"));
  });
});
