import { NUMBER_FORMAT_BY_KIND, inferColumnKind, numberFormatForField } from "../../src/tables/columnKinds";
import { headerForField, shapeTable, toCellValue } from "../../src/tables/tableData";

describe("inferColumnKind", () => {
  it.each([
    ["min_rent", [1850, 1900.5], "currency"],
    ["net_effective_rent_per_sq_ft", [2.5], "currency"],
    ["sq_ft", [720, 810], "integer"],
    ["trucomp_sq_ft_differential", [-20.5], "number"],
    ["leased_percent", [0.952], "percent"],
    ["concession_percentage", [0.045], "percent"],
    ["concession_percent", [0.05], "percent"],
    ["concession_percent_2_bed", [0.05], "percent"],
    ["rent_growth_rate_yoy_avg", [0.035], "percent"],
    ["median_income_growth_yoy", [0.02], "percent"],
    ["sale_cap_rate_avg_t365", [0.051], "percent"],
    ["advertised_occupancy_pct", [0.9715], "percent"],
    ["year_built", [2005.4], "year"],
    ["year_built_p50", [2005], "year"],
    ["distance", [1.25], "miles"],
    ["concession_value_avg_t30", [150], "currency"],
    ["latitude", [30.2672], "coordinate"],
    ["property_id", [123], "identifier"],
    ["bedroom_count", [1, 2], "integer"],
    ["bathroom_count", [1, 1.5], "number"],
    ["date_available", ["2026-12-01"], "date"],
    ["date_leased", ["2026-11-01T10:00:00Z"], "timestamp"],
    ["created_at", ["2026-11-01T10:00:00Z", "2026-11-02T10:00:00Z"], "timestamp"],
    ["unit_name", ["101", "021621"], "text"],
    ["zip", [78701], "identifier"],
    ["zip_code", ["02134"], "text"],
    ["is_leased", [true, false], "boolean"],
    ["mystery", [1, 2], "integer"],
    ["mystery_ratio", [0.5], "number"],
  ])("%s with %p is %s", (name, values, kind) => {
    expect(inferColumnKind(name, values)).toBe(kind);
  });

  it("trusts the values over the name when they disagree, and ignores empty cells", () => {
    expect(inferColumnKind("min_rent", ["call for price"])).toBe("text");
    expect(inferColumnKind("min_rent", [null, "", 1200])).toBe("currency");
    expect(inferColumnKind("min_rent", [])).toBe("currency");
    expect(inferColumnKind("notes", [null])).toBe("text");
  });
});

describe("shaping values", () => {
  it("writes readable headers", () => {
    expect(headerForField("net_effective_rent_psf")).toBe("Net Effective Rent PSF");
    expect(headerForField("rent_growth_yoy")).toBe("Rent Growth YoY");
  });

  it("converts values for Excel: null empty, bigint to number, arrays to text, dates to serials", () => {
    expect(toCellValue(null, "currency")).toBe("");
    expect(toCellValue(Number.NaN, "number")).toBe("");
    expect(toCellValue(12n, "integer")).toBe(12);
    expect(toCellValue(["a", "b"], "text")).toBe("a; b");
    expect(toCellValue({ a: 1 }, "text")).toBe('{"a":1}');
    expect(toCellValue("2026-03-01", "date")).toBe(46082);
    expect(toCellValue("2026-03-01", "text")).toBe("2026-03-01");
    expect(toCellValue("soon", "date")).toBe("soon");
    expect(toCellValue(new Date("2026-03-01T12:00:00Z"), "timestamp")).toBe(46082.5);
  });

  it("shapes parsed rows into typed columns", () => {
    const table = shapeTable(
      ["property_id", "collected_at", "asking_rent"],
      [
        [1, "2026-03-01", 1500],
        [2, "2026-03-02", null],
      ],
    );
    expect(table.columns.map((c) => c.kind)).toEqual(["identifier", "date", "currency"]);
    expect(table.rows).toEqual([
      [1, 46082, 1500],
      [2, 46083, ""],
    ]);
  });
});

describe("numberFormatForField (a template's formula cells, before any value)", () => {
  it.each([
    ["asking_rent", NUMBER_FORMAT_BY_KIND.currency],
    ["leased_percent_avg_t30", NUMBER_FORMAT_BY_KIND.percent],
    ["rent_growth_rate_yoy", NUMBER_FORMAT_BY_KIND.percent],
    ["year_built", NUMBER_FORMAT_BY_KIND.year],
    ["collected_at", NUMBER_FORMAT_BY_KIND.date],
    ["unit_count", NUMBER_FORMAT_BY_KIND.integer],
  ])("formats %s as the exports do", (field, format) => {
    expect(numberFormatForField(field)).toBe(format);
  });

  it.each(["property_name", "zip", "property_id"])(
    "leaves %s General: a text format would turn the formula typed into the cell into text",
    (field) => {
      expect(numberFormatForField(field)).toBe("General");
    },
  );
});
