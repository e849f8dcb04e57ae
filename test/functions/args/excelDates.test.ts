import { ArgumentError } from "../../../src/functions/cellErrors";
import { readDate, serialToIsoDate } from "../../../src/functions/args/excelDates";

const notADate = new ArgumentError("start must be a date (a date cell, DATE(...) or text like 2026-01-31).");

describe("readDate at the ends of Excel's dates", () => {
  it("takes 1900-03-01 (serial 61) and refuses serial 60, Excel's phantom 29 February 1900", () => {
    expect(readDate(61, "start")).toBe("1900-03-01");
    expect(() => readDate(60, "start")).toThrow(notADate);
  });

  it("takes 9999-12-31 (serial 2958465) and refuses the serial after it", () => {
    expect(readDate(2_958_465, "start")).toBe("9999-12-31");
    expect(() => readDate(2_958_466, "start")).toThrow(notADate);
  });

  it("turns a serial into its day, whatever time of day it carries", () => {
    expect(serialToIsoDate(46082)).toBe("2026-03-01");
    expect(serialToIsoDate(46082.999)).toBe("2026-03-01");
    expect(readDate("2024-02-29", "start")).toBe("2024-02-29");
    expect(() => readDate("2025-02-29", "start")).toThrow(notADate);
  });
});
