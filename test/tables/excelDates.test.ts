import { isoDateToSerial, isoTimestampToSerial, isoToSerial } from "../../src/tables/excelDates";

describe("Excel date serials", () => {
  it("matches Excel's serials for calendar dates", () => {
    expect(isoDateToSerial("1900-03-01")).toBe(61);
    expect(isoDateToSerial("2000-01-01")).toBe(36526);
    expect(isoDateToSerial("2026-03-01")).toBe(46082);
  });

  it("rejects dates that do not exist and text that is not a date", () => {
    expect(isoDateToSerial("2026-02-30")).toBeUndefined();
    // Month 13 or 0 rolls into the next or last year on the same day of the month: the month alone shows it.
    expect(isoDateToSerial("2026-13-01")).toBeUndefined();
    expect(isoDateToSerial("2026-00-10")).toBeUndefined();
    expect(isoDateToSerial("03/01/2026")).toBeUndefined();
    expect(isoToSerial("available")).toBeUndefined();
  });

  it("keeps the time of day as the fraction, in UTC", () => {
    expect(isoTimestampToSerial("2026-03-01T12:00:00Z")).toBe(46082.5);
    expect(isoTimestampToSerial("2026-03-01T14:00:00+02:00")).toBe(46082.5);
    expect(isoTimestampToSerial("2026-03-01 06:00:00")).toBe(46082.25);
    expect(isoToSerial("2026-03-01T00:00:00.000Z")).toBe(46082);
  });
});
