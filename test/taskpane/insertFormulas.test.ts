import {
  BOUNDARY_FORECAST_FIELDS,
  MARKET_METRICS,
  NARRATIVE_SECTIONS,
  PROPERTY_FIELDS,
  PROPERTY_FORECAST_FIELDS,
  filterFields,
  type CatalogueField,
} from "../../src/taskpane/insert/fieldCatalogue";
import type { ForecastAggregation } from "../../src/data/batchedEndpoints";
import { validateForecastFields } from "../../src/data/forecastFields";
import { RECORD_FIELDS } from "../../src/api/recordFields";
import { FORECAST_INTERVALS, forecastTableSize, formulasFor } from "../../src/taskpane/insert/insertFormulas";
import { forecastIntervalValues, sortDirectionValues } from "../../src/api/schema";
import { FORWARD_PERIODS } from "../../src/functions/args/forecastPeriods";
import {
  MARKETS_DIRECTIONS,
  MARKETS_LIMIT,
  MARKETS_OPTIONS,
  MARKETS_RANKING_OPTIONS,
} from "../../src/functions/args/marketsOptions";
import { PaneInputError } from "../../src/taskpane/paneInputError";
import { parsedContract } from "../support/parsedContract";

const contract = parsedContract() as {
  components: { schemas: Record<string, { properties: Record<string, unknown> }> };
};
const schemaFields = (name: string) => Object.keys(contract.components.schemas[name]?.properties ?? {});

describe("the field catalogue", () => {
  it("offers only fields the contract defines", () => {
    const property = schemaFields("PropertyAttributes");
    const market = schemaFields("CompareMarketAttributes");
    expect(property.length).toBeGreaterThan(50);
    expect(PROPERTY_FIELDS.map((field) => field.name).filter((name) => !property.includes(name))).toEqual([]);
    expect(MARKET_METRICS.map((field) => field.name).filter((name) => !market.includes(name))).toEqual([]);
  });

  it("offers forecast fields the forecast functions take, property and boundary ones apart", () => {
    const asked = (fields: readonly { name: string }[]) =>
      fields.map(({ name }) => ({ field: name, aggregation_type: "avg" }) as ForecastAggregation);
    expect(() =>
      validateForecastFields({ kind: "property", id: 1 }, asked(PROPERTY_FORECAST_FIELDS)),
    ).not.toThrow();
    expect(() =>
      validateForecastFields({ kind: "geo_boundary", id: 1 }, asked(BOUNDARY_FORECAST_FIELDS)),
    ).not.toThrow();
    expect(() =>
      validateForecastFields({ kind: "geo_boundary", id: 1 }, asked(PROPERTY_FORECAST_FIELDS.slice(0, 1))),
    ).toThrow();
  });

  it("gives every field a meaning and a unit", () => {
    for (const field of [
      ...PROPERTY_FIELDS,
      ...MARKET_METRICS,
      ...BOUNDARY_FORECAST_FIELDS,
      ...PROPERTY_FORECAST_FIELDS,
      ...NARRATIVE_SECTIONS,
    ]) {
      expect(field.meaning.length).toBeGreaterThan(1);
      expect(field.unit.length).toBeGreaterThan(1);
    }
  });

  it("offers every field of the contract's records that fits a cell, the common ones first", () => {
    // The generated field list is the contract's (test/api/schema.test.ts); lists and records do not fit a cell.
    const cellFields = (name: string) => {
      expect(RECORD_FIELDS[name]?.map(([field]) => field).sort()).toEqual(schemaFields(name).sort());
      return (RECORD_FIELDS[name] ?? [])
        .filter(([, type]) => type !== "array" && type !== "object")
        .map(([field]) => field)
        .sort();
    };
    expect(PROPERTY_FIELDS.map((field) => field.name).sort()).toEqual(cellFields("PropertyAttributes"));
    expect(MARKET_METRICS.map((field) => field.name).sort()).toEqual(cellFields("CompareMarketAttributes"));
    expect(MARKET_METRICS[0]).toEqual({
      name: "rent_avg_t30",
      label: "Asking rent, avg 30 d",
      meaning: "Average asking rent over the last 30 days",
      unit: "$ per unit per month",
      synonyms: ["asking_rent", "avg_rent"],
    });
  });

  it("marks the fields a plan above base is needed for, as the contract's tiers say", () => {
    const planOf = (fields: readonly { name: string; plan?: string }[], name: string) =>
      fields.find((entry) => entry.name === name)?.plan;
    expect(planOf(MARKET_METRICS, "rent_avg_t30")).toBeUndefined();
    expect(planOf(MARKET_METRICS, "concession_percent_avg_t30")).toBe("pro");
    expect(planOf(MARKET_METRICS, "rent_growth_rate_yoy_avg")).toBe("pro");
    expect(planOf(PROPERTY_FIELDS, "asking_rent")).toBe("pro");
    expect(planOf(PROPERTY_FIELDS, "last_sale_price")).toBe("pro-plus");
    expect(filterFields(MARKET_METRICS, "pro").length).toBeGreaterThan(50);
  });

  it("finds fields by any words of their name, meaning or unit, the common ones first", () => {
    const names = (typed: string) => filterFields(MARKET_METRICS, typed).map((field) => field.name);
    expect(names("leased")[0]).toBe("leased_percent_avg_t30");
    expect(names("leased")).toContain("leased_unit_count_total_mtd");
    expect(names("RENT two")[0]).toBe("rent_2_bed_avg_t30");
    expect(names("studio per sq ft")).toEqual(["rent_0_bed_psf_avg_t30", "ner_0_bed_psf_avg_t30"]);
    expect(names("")).toHaveLength(MARKET_METRICS.length);
  });

  it('finds both occupancies for "occupancy", each with what it means, as the functions name them', () => {
    const found = (fields: readonly CatalogueField[]) =>
      filterFields(fields, "occupancy").map(({ name, meaning }) => ({ name, meaning }));
    expect(found(PROPERTY_FIELDS)).toEqual(
      expect.arrayContaining([
        {
          name: "leased_percent",
          meaning: "Leased occupancy: the share of units under lease, the occupancy the narrative reports",
        },
        {
          name: "advertised_occupancy_percent",
          meaning: "Advertised occupancy: the share of units not advertised as available",
        },
      ]),
    );
    expect(found(MARKET_METRICS).map(({ name }) => name)).toEqual(
      expect.arrayContaining(["leased_percent_avg_t30", "advertised_occupancy_percent_avg_t30"]),
    );
    expect(filterFields(PROPERTY_FIELDS, "avg rent").map(({ name }) => name)).toContain("asking_rent");
  });
});

describe("formulas the builder inserts", () => {
  it("writes one RENT.MARKET per metric, since the function takes one", () => {
    expect(formulasFor("market", { id: 1810 }, ["rent_avg_t30", "leased_percent_avg_t30"])).toEqual([
      '=RENT.MARKET(1810, "rent_avg_t30")',
      '=RENT.MARKET(1810, "leased_percent_avg_t30")',
    ]);
  });

  it("writes one block formula over selected id cells with the fields as one text", () => {
    expect(formulasFor("property", { cells: "A2:A11" }, ["asking_rent", "unit_count", "year_built"])).toEqual(
      ['=RENT.PROPERTY(A2:A11, "asking_rent,unit_count,year_built")'],
    );
  });

  it("writes one block RENT.MARKET over selected market cells with the metrics as one text", () => {
    expect(formulasFor("market", { cells: "A2:A5" }, ["rent_avg_t30", "leased_percent_avg_t30"])).toEqual([
      '=RENT.MARKET(A2:A5, "rent_avg_t30,leased_percent_avg_t30")',
    ]);
  });

  it("writes the forecast, comp set table and narrative formulas", () => {
    expect(formulasFor("forecast", { id: 7 }, ["rent_growth_yoy", "occupancy"])).toEqual([
      '=RENT.GEOFORECAST(7, "rent_growth_yoy,occupancy")',
    ]);
    expect(
      formulasFor("propertyForecast", { id: 42 }, ["rent_growth_rate_yoy", "occupancy_percent"]),
    ).toEqual(['=RENT.FORECAST(42, "rent_growth_rate_yoy,occupancy_percent")']);
    expect(formulasFor("compSet", { id: 3 }, ["SURVEY"])).toEqual(["=RENT.SURVEY(3)"]);
    expect(formulasFor("narrative", { id: 7 }, ["rent"])).toEqual(['=RENT.NARRATIVE(7, "rent")']);
  });

  it("says what is missing or cannot be done, in words", () => {
    expect(() => formulasFor("market", { id: 1 }, [])).toThrow(
      new PaneInputError("Pick at least one field from the list."),
    );
    expect(() => formulasFor("compSet", { id: 1 }, ["SURVEY", "UNITS"])).toThrow(/Pick one comp set table/);
    expect(() => formulasFor("narrative", { cells: "A1:A3" }, ["rent"])).toThrow(
      /property ids or markets only/,
    );
  });
});

describe("the builder's forecast options", () => {
  const options = (
    choice: Partial<{ interval: string; useRentValue: boolean; start: string; end: string }>,
  ) => ({
    forecast: { interval: "", useRentValue: false, start: "", end: "", ...choice },
  });

  it("offers the contract's intervals and the forward periods RENT.FORECAST takes", () => {
    expect(FORECAST_INTERVALS).toEqual([...forecastIntervalValues, ...FORWARD_PERIODS]);
    expect(FORECAST_INTERVALS).toEqual(
      expect.arrayContaining(["month", "quarter", "year", "next_12_months", "next_3_years", "next_5_years"]),
    );
  });

  it("writes interval, dollars and dates in their places, the unset ones empty and the trailing ones left out", () => {
    const fields = ["rent_growth_rate_yoy"];
    expect(formulasFor("propertyForecast", { cells: "A2" }, fields, options({ useRentValue: true }))).toEqual(
      ['=RENT.FORECAST(A2, "rent_growth_rate_yoy", , , , , TRUE)'],
    );
    expect(
      formulasFor("propertyForecast", { id: 42 }, fields, options({ interval: "year", useRentValue: true })),
    ).toEqual(['=RENT.FORECAST(42, "rent_growth_rate_yoy", , "year", , , TRUE)']);
    expect(
      formulasFor(
        "forecast",
        { id: 7 },
        ["rent_growth_yoy", "rent_growth_yoy_downside", "rent_growth_yoy_upside"],
        options({ interval: "quarter", start: "2027-01-01", end: "2028-12-31" }),
      ),
    ).toEqual([
      '=RENT.GEOFORECAST(7, "rent_growth_yoy,rent_growth_yoy_downside,rent_growth_yoy_upside", , "quarter", "2027-01-01", "2028-12-31")',
    ]);
    expect(
      formulasFor("propertyForecast", { id: 42 }, fields, options({ interval: "next_3_years" })),
    ).toEqual(['=RENT.FORECAST(42, "rent_growth_rate_yoy", , "next_3_years")']);
  });

  it("refuses a date the function would refuse, and dates with a forward period, in words", () => {
    expect(() =>
      formulasFor("propertyForecast", { id: 42 }, ["occupancy_percent"], options({ start: "2027-02-30" })),
    ).toThrow(new PaneInputError("Start must be a date (a date cell, DATE(...) or text like 2026-01-31)."));
    expect(() =>
      formulasFor(
        "propertyForecast",
        { id: 42 },
        ["occupancy_percent"],
        options({ interval: "next_12_months", end: "2027-12-31" }),
      ),
    ).toThrow(/^next_12_months runs from this month and takes no start or end date/);
  });

  it("leaves room for the most rows and the columns a forecast can spill", () => {
    // Header, then a row per month of the 60-month window; a quarter or year may be cut at both ends.
    expect(forecastTableSize("", 1)).toEqual({ rows: 61, columns: 2 });
    expect(forecastTableSize("year", 1)).toEqual({ rows: 7, columns: 5 });
    expect(forecastTableSize("quarter", 2)).toEqual({ rows: 22, columns: 6 });
    expect(forecastTableSize("next_12_months", 2)).toEqual({ rows: 2, columns: 6 });
  });
});

describe("RENT.MARKETS in the builder", () => {
  it("offers the ranking options RENT.MARKETS reads, with the contract's directions and limit", () => {
    expect(MARKETS_OPTIONS).toEqual(expect.arrayContaining([...MARKETS_RANKING_OPTIONS]));
    expect(MARKETS_RANKING_OPTIONS).toEqual(["sort", "direction", "limit"]);
    expect(MARKETS_DIRECTIONS).toEqual(sortDirectionValues);
    expect(MARKETS_LIMIT.minimum).toBe(1);
  });

  it("writes the sort, direction and limit chosen as the function's options, headed by readable names", () => {
    const metrics = ["rent_avg_t30", "leased_percent_avg_t30"];
    expect(
      formulasFor("markets", undefined, metrics, {
        markets: { sort: "leased_percent_avg_t30", direction: "asc", limit: "15" },
      }),
    ).toEqual([
      '=RENT.MARKETS("rent_avg_t30,leased_percent_avg_t30", "sort=leased_percent_avg_t30; direction=asc; limit=15", "names")',
    ]);
    expect(formulasFor("markets", undefined, metrics, { markets: { sort: "", limit: " " } })).toEqual([
      '=RENT.MARKETS("rent_avg_t30,leased_percent_avg_t30", , "names")',
    ]);
    expect(() =>
      formulasFor("markets", undefined, metrics, { markets: { limit: String(MARKETS_LIMIT.maximum + 1) } }),
    ).toThrow(/^Markets shown: a whole number from 1 to/);
  });
});
