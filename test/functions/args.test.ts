import fc from "fast-check";
import { ArgumentError } from "../../src/functions/cellErrors";
import { isoDateToSerial } from "../../src/tables/excelDates";
import { readDate, serialToIsoDate } from "../../src/functions/args/excelDates";
import { readOptions } from "../../src/functions/args/options";
import { readBoolean, readChoice, readId, readInteger, readList } from "../../src/functions/args/scalars";
import { outputValue } from "../../src/functions/shape/values";

describe("Excel dates", () => {
  it("matches Excel's serials for known dates", () => {
    expect(isoDateToSerial("1900-03-01")).toBe(61);
    expect(isoDateToSerial("2026-01-31")).toBe(46053);
    expect(serialToIsoDate(46053)).toBe("2026-01-31");
  });

  it("round-trips every date from 1900-03-01 to 9999-12-31", () => {
    fc.assert(
      fc.property(fc.integer({ min: 61, max: 2_958_465 }), (serial) => {
        expect(isoDateToSerial(serialToIsoDate(serial))).toBe(serial);
      }),
    );
  });

  it("reads serials and ISO text, and names the argument when neither", () => {
    expect(readDate(46053, "start")).toBe("2026-01-31");
    expect(readDate(46053.75, "start")).toBe("2026-01-31");
    expect(readDate(" 2026-02-28 ", "start")).toBe("2026-02-28");
    for (const bad of ["2026-02-30", "31/01/2026", "", true, -1, 3_000_000]) {
      expect(() => readDate(bad, "start")).toThrow(
        new ArgumentError("start must be a date (a date cell, DATE(...) or text like 2026-01-31)."),
      );
    }
  });
});

describe("scalar arguments", () => {
  it("reads ids from numbers and numeric text", () => {
    expect(readId(123, "property_id")).toBe(123);
    expect(readId(" 77 ", "property_id")).toBe(77);
    expect(() => readId(1.5, "property_id")).toThrow(/property_id must be a positive whole number.*1\.5/);
    expect(() => readId("abc", "property_id")).toThrow(/"abc"/);
    expect(() => readId(0, "property_id")).toThrow(ArgumentError);
  });

  it("reads booleans the ways people type them", () => {
    expect([true, 1, "TRUE", "yes"].map((v) => readBoolean(v, "x"))).toEqual([true, true, true, true]);
    expect([false, 0, "false", "No"].map((v) => readBoolean(v, "x"))).toEqual([false, false, false, false]);
    expect(() => readBoolean("maybe", "use_rent_value")).toThrow(/use_rent_value must be TRUE or FALSE/);
  });

  it("reads a choice without regard to case and lists the allowed ones", () => {
    expect(readChoice("QUARTER", "interval", ["month", "quarter", "year"])).toBe("quarter");
    expect(() => readChoice("week", "interval", ["month", "quarter", "year"])).toThrow(
      'interval must be one of month, quarter, year, not "week".',
    );
    expect(() => readInteger(0, "limit", 1, 100)).toThrow(
      "limit must be a whole number from 1 to 100, not 0.",
    );
  });

  it("reads lists from ranges of any shape or from separated text", () => {
    expect(
      readList(
        [
          [1, 2],
          [3, ""],
        ],
        "ids",
        readId,
      ),
    ).toEqual([1, 2, 3]);
    expect(readList("1, 2;3", "ids", readId)).toEqual([1, 2, 3]);
    expect(readList(7, "ids", readId)).toEqual([7]);
    // Text typed into a matrix parameter arrives as a 1x1 grid.
    expect(readList([["1, 2"]], "ids", readId)).toEqual([1, 2]);
  });
});

describe("options", () => {
  const allowed = ["bedrooms", "min_rent", "unit_styles"];

  it("reads a two-column range and text alike, with canonical names", () => {
    const fromRange = readOptions(
      [
        ["Bedrooms", "1,2"],
        ["min_rent", 1500],
        ["", ""],
      ],
      allowed,
    );
    const fromText = readOptions("bedrooms=1,2; MIN_RENT=1500", allowed);
    expect([...fromRange]).toEqual([
      ["bedrooms", "1,2"],
      ["min_rent", 1500],
    ]);
    expect([...fromText]).toEqual([
      ["bedrooms", "1,2"],
      ["min_rent", "1500"],
    ]);
    expect(readOptions(null, allowed).size).toBe(0);
    expect([...readOptions([["min_rent=900; bedrooms=2"]], allowed)]).toEqual([
      ["min_rent", "900"],
      ["bedrooms", "2"],
    ]);
    expect(readOptions([["", ""]], allowed).size).toBe(0);
  });

  it("names an unknown option and lists the allowed ones", () => {
    expect(() => readOptions("bedroms=2", allowed)).toThrow(
      'Unknown option "bedroms" in options. Allowed: bedrooms, min_rent, unit_styles.',
    );
    expect(() => readOptions([["a", 1, 2]], allowed)).toThrow(/two-column range/);
    expect(() => readOptions("bedrooms", allowed)).toThrow(/"bedrooms" is not name=value/);
    expect(() => readOptions("bedrooms=1; bedrooms=2", allowed)).toThrow(/given twice/);
  });
});

describe("values shown in cells", () => {
  it("turns ISO dates into Excel serials, nulls into empty cells and lists into text", () => {
    expect(outputValue("2026-01-31")).toBe(46053);
    expect(outputValue("2026-01-31T12:00:00Z")).toBe(46053.5);
    expect(outputValue("2020-01-01 Lofts")).toBe("2020-01-01 Lofts");
    expect(outputValue(null)).toBe("");
    expect(outputValue(undefined)).toBe("");
    expect(outputValue(Number.NaN)).toBe("");
    expect(outputValue(1500.5)).toBe(1500.5);
    expect(outputValue(["TX", "OK"])).toBe("TX; OK");
  });
});
