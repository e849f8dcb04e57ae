/** The chart a block makes, from its header and rows alone: blocks headed by ids or by readable names. */
import { planChart, type Block } from "../../../src/excel/charts";

const at = (values: unknown[][]): Block => ({
  sheetName: "Sheet1",
  rect: { row: 4, column: 2, rowCount: values.length, columnCount: values[0]?.length ?? 0 },
  values,
});

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

  it("charts a wide history (a column per period) as a line per row, when told which columns are periods", () => {
    const block = at([
      ["id", 46022, 46053, 46081],
      [100001, 1500, 1510, 1520],
      [100002, 1600, 1610, 1620],
    ]);
    expect(planChart(block, "history", { periodColumns: [1, 2, 3], field: "avg_rent" })).toMatchObject({
      type: "Line",
      title: "Avg rent ($) over time",
      series: [
        {
          name: "100001",
          values: { row: 5, column: 3, rowCount: 1, columnCount: 3 },
          xValues: { row: 4, column: 3 },
        },
        { name: "100002", values: { row: 6, column: 3, rowCount: 1, columnCount: 3 } },
      ],
    });
    expect(planChart(block, "history", { periodColumns: [1, 3] })).toMatchObject({
      problem: expect.stringMatching(/not side by side/),
    });
  });
});
