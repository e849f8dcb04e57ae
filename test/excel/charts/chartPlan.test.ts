/** The chart a block makes, from its header and rows alone: blocks headed by ids or by readable names. */
import { planChart, type Block } from "../../../src/excel/charts";
import { wideHistoryOf } from "../../../src/taskpane/chartLayouts";
import { wideSpillFromTable } from "../../../src/functions/shape/historyGrid";
import { isoToSerial } from "../../../src/tables/excelDates";
import { shapeTable } from "../../../src/tables/tableData";

const at = (values: unknown[][]): Block => ({
  sheetName: "Sheet1",
  rect: { row: 4, column: 2, rowCount: values.length, columnCount: values[0]?.length ?? 0 },
  values,
});

const [JAN, FEB] = ["2026-01-31", "2026-02-28"].map((day) => isoToSerial(day) as number);

/** A long history table as RENT.HISTORY shapes it before laying it out: each id's months, each field a column. */
function longHistory(fields: string[], ids: number[]) {
  const rows = ids.flatMap((id, p) =>
    ["2026-01-31", "2026-02-28", "2026-03-31"].map((day, m) => [
      day,
      id,
      ...fields.map((_, f) => 1000 * (f + 1) + 100 * p + m),
    ]),
  );
  return shapeTable(["date", "id", ...fields], rows);
}

describe("planChart", () => {
  it("reads a forecast headed by readable names as one headed by ids", () => {
    const names = planChart(
      at([
        ["Date", "Occupancy %", "Occupancy % downside", "Occupancy % upside"],
        [46023, 0.95, 0.93, 0.97],
        [46054, 0.95, 0.92, 0.98],
      ]),
      "forecast",
    );
    const ids = planChart(
      at([
        ["date", "occupancy_percent", "occupancy_percent_downside", "occupancy_percent_upside"],
        [46023, 0.95, 0.93, 0.97],
        [46054, 0.95, 0.92, 0.98],
      ]),
      "forecast",
    );
    expect(names).toEqual(ids);
    expect(names).toMatchObject({
      type: "Line",
      title: "Occupancy % forecast: base, downside and upside",
      valueAxis: { title: "Occupancy %", numberFormat: "0.0%" },
      series: [
        {
          name: "Occupancy % downside",
          values: { row: 5, column: 4, rowCount: 2, columnCount: 1 },
          dashed: true,
        },
        { name: "Occupancy %", values: { row: 5, column: 3, rowCount: 2, columnCount: 1 }, dashed: false },
        {
          name: "Occupancy % upside",
          values: { row: 5, column: 5, rowCount: 2, columnCount: 1 },
          dashed: true,
        },
      ],
    });
  });

  it("charts forecast rent in dollars (useRentValue) with its bounds in dollars too", () => {
    const plan = planChart(
      at([
        ["date", "forecast rent (rent_growth_rate_yoy)", "forecast rent (rent_growth_rate_yoy_upside)"],
        [46023, 1800, 1850],
      ]),
      "forecast",
    );
    expect(plan).toMatchObject({
      valueAxis: { numberFormat: "$#,##0" },
      series: [
        { name: "forecast rent (rent_growth_rate_yoy)" },
        { name: "forecast rent (rent_growth_rate_yoy_upside)", dashed: true },
      ],
    });
    // The title names the lines there are: no downside line, so no downside in it.
    expect(plan).toMatchObject({ title: expect.stringMatching(/ forecast: base and upside$/) });
    const baseOnly = planChart(
      at([
        ["date", "occupancy_percent"],
        [46023, 0.95],
        [46054, 0.96],
      ]),
      "forecast",
    );
    expect(baseOnly).toMatchObject({ title: "Occupancy % forecast", series: [{ dashed: false }] });
  });

  it("draws markets' bars top-down in the block's order, and says which metrics a block has", () => {
    const block = at([
      ["id", "name", "geo_type", "rent_avg_t30", "leased_percent_avg_t30"],
      [1, "Austin", "MSA", 1800, 0.93],
    ]);
    expect(
      planChart(block, "comparison", { field: "leased_percent_avg_t30", asOf: "as of 2026-11-27" }),
    ).toMatchObject({
      type: "BarClustered",
      title: expect.stringMatching(/ by market, as of 2026-11-27$/),
      categoryAxis: { reversed: true },
      series: [{ values: { row: 5, column: 6, rowCount: 1, columnCount: 1 }, xValues: { column: 3 } }],
    });
    expect(planChart(block, "comparison", { field: "occupancy" })).toEqual({
      problem: 'This block has no metric "occupancy"; it has rent_avg_t30, leased_percent_avg_t30.',
    });
  });

  it("refuses a comp set block without a size column, and a block of one cell", () => {
    expect(
      planChart(
        at([
          ["property_name", "avg_rent"],
          ["Oak", 1500],
        ]),
        "rentBySize",
      ),
    ).toEqual({
      problem: "This block has no size column (sq_ft or avg_sq_ft) to chart rent against.",
    });
    expect(planChart(at([["#N/A"]]), "history")).toEqual({
      problem: "The block shows no table: it has no spilled rows to chart.",
    });
  });

  it("charts a wide RENT.HISTORY as a line per property, the periods' dates along the axis", () => {
    const block = at(
      wideSpillFromTable(longHistory(["avg_rent"], [100001, 100002]), "HISTORY", "none", { choice: "ids" }),
    );
    const wide = wideHistoryOf(
      '=RENT.HISTORY(A2:A3, "avg_rent", D1, D2, "month", , , "wide")',
      block.values[0]!,
    );
    expect(wide).toEqual({ keyColumns: [{ index: 0, key: "id" }], fieldColumn: 1, periodColumns: [2, 3, 4] });
    expect(planChart(block, "history", { wideHistory: wide! })).toEqual({
      type: "Line",
      title: "Avg rent ($) over time",
      valueAxis: { title: "Avg rent ($)", numberFormat: "$#,##0" },
      categoryAxis: { title: "Period ending", numberFormat: "mmm yyyy" },
      series: [
        {
          name: "100001",
          values: { row: 5, column: 4, rowCount: 1, columnCount: 3 },
          xValues: { row: 4, column: 4, rowCount: 1, columnCount: 3 },
        },
        {
          name: "100002",
          values: { row: 6, column: 4, rowCount: 1, columnCount: 3 },
          xValues: { row: 4, column: 4, rowCount: 1, columnCount: 3 },
        },
      ],
    });
    // The long layout of the same history, or a formula that is no history, has no wide layout.
    expect(wideHistoryOf("=RENT.HISTORY(A2)", ["date", "id", "avg_rent"])).toBeUndefined();
    expect(wideHistoryOf("=RENT.MARKETS(A2)", block.values[0]!)).toBeUndefined();
    // Told of periods that are not side by side, it says so rather than reading other cells.
    expect(planChart(block, "history", { wideHistory: { ...wide!, periodColumns: [2, 4] } })).toMatchObject({
      problem: expect.stringMatching(/not side by side/),
    });
  });

  it("keeps every field of a wide history: a line per property and field, or the field asked for", () => {
    const table = longHistory(["avg_rent", "avg_ner"], [100001, 100002]);
    const names = at(wideSpillFromTable(table, "HISTORY", "none", { choice: "names" }));
    const wide = wideHistoryOf(
      '=RENT.HISTORY(A2:A3, "avg_rent, avg_ner", , , , , "names", "wide")',
      names.values[0]!,
    )!;
    const both = planChart(names, "history", { wideHistory: wide });
    expect(both).toMatchObject({
      title: "Avg rent ($), Avg net eff. rent ($) over time",
      series: [
        { name: "100001 Avg rent", values: { row: 5 } },
        { name: "100002 Avg rent", values: { row: 6 } },
        { name: "100001 Avg net eff. rent", values: { row: 7 } },
        { name: "100002 Avg net eff. rent", values: { row: 8 } },
      ],
    });
    // Figure picks one field's rows, by id or by the name the block shows.
    for (const field of ["avg_ner", "Avg net eff. rent"])
      expect(planChart(names, "history", { wideHistory: wide, field })).toMatchObject({
        title: "Avg net eff. rent ($) over time",
        series: [
          { name: "100001", values: { row: 7 } },
          { name: "100002", values: { row: 8 } },
        ],
      });
    expect(planChart(names, "history", { wideHistory: wide, field: "leases_last_30d" })).toEqual({
      problem: 'This block has no figure "leases_last_30d"; it has Avg rent, Avg net eff. rent.',
    });
  });

  it("asks for one figure when a wide history's fields are in different units, and names floor plans", () => {
    const mixed = at(
      wideSpillFromTable(longHistory(["avg_rent", "leases_last_30d"], [7]), "HISTORY", "none", {
        choice: "ids",
      }),
    );
    const wide = wideHistoryOf("=RENT.HISTORY(7)", mixed.values[0]!)!;
    expect(planChart(mixed, "history", { wideHistory: wide })).toEqual({
      problem:
        "This history block holds figures in different units (Avg rent ($), Leases, 30 d (count)), which " +
        "share no axis: name one in Figure to chart it.",
    });
    expect(planChart(mixed, "history", { wideHistory: wide, field: "leases_last_30d" })).toMatchObject({
      series: [{ name: "7", values: { row: 6 } }],
    });

    const plans = at([
      ["property_id", "property_name", "floor_plan", "bedroom_count", "bathroom_count", "field", JAN, FEB],
      [1, "Oak Court", "A1", 1, 1, "asking_rent", 1500, 1510],
      [1, "Oak Court", "B2", 2, 2, "asking_rent", 1900, ""],
    ]);
    const planned = planChart(plans, "history", {
      wideHistory: wideHistoryOf('=RENT.FLOORPLANHISTORY(9, , D1, D2, , , , "wide")', plans.values[0]!)!,
    });
    expect(planned).toMatchObject({
      series: [
        { name: "Oak Court A1", values: { column: 8, columnCount: 2 } },
        { name: "Oak Court B2", values: { column: 8, columnCount: 2 } },
      ],
    });
  });
});
