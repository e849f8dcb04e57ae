/**
 * The chart module against the host stand-in (test/host): real RENT-shaped blocks spilled by the host's
 * calculator, charted, recalculated to a spill of another size, and followed.
 */
import { chartBlock, followBlockCharts, refreshBlockCharts } from "../../../src/excel/charts";
import { ChartBlockError } from "../../../src/excel/charts/chartBlock";
import { CHART_LAYOUTS } from "../../../src/taskpane/chartLayouts";
import { Calculator } from "../../host/page/calculator";
import { HOST_PROFILES } from "../../host/profiles";
import { excelNamespace, type StandInRequestContext } from "../../host/standin/excelApi";
import type { HostBridge } from "../../host/standin/hostBridge";
import { officeNamespace } from "../../host/standin/office";
import type { CellReference, ChartRecord } from "../../host/workbook/charts";
import { Workbook } from "../../host/workbook/workbook";

/** Long history: date | id | avg_rent, one run of `months` rows per property. */
function history(properties: number, months: number): unknown[][] {
  const rows: unknown[][] = [["date", "id", "avg_rent"]];
  for (let p = 0; p < properties; p++)
    for (let m = 0; m < months; m++) rows.push([46023 + 30 * m, 100001 + p, 1500 + 100 * p + m]);
  return rows;
}

/** The same history wide: id | field | one column per month headed by its date, a row per property. */
function wideHistory(properties: number, months: number): unknown[][] {
  const long = history(properties, months).slice(1);
  const dates = long.slice(0, months).map((row) => row[0]);
  return [
    ["id", "field", ...dates],
    ...Array.from({ length: properties }, (_, p) => [
      100001 + p,
      "avg_rent",
      ...long.slice(p * months, (p + 1) * months).map((row) => row[2]),
    ]),
  ];
}

function host() {
  const profile = HOST_PROFILES["m365-windows"];
  const workbook = new Workbook();
  const calculator = new Calculator(
    workbook,
    "RENT",
    [
      {
        id: "HISTORY",
        name: "HISTORY",
        parameters: [{ name: "properties" }, { name: "months" }, { name: "layout", optional: true }],
      },
      { id: "FORECAST", name: "FORECAST", parameters: [{ name: "months" }] },
      { id: "MARKETS", name: "MARKETS", parameters: [{ name: "count" }] },
      { id: "UNITS", name: "UNITS", parameters: [{ name: "count" }] },
      { id: "NARRATIVE", name: "NARRATIVE", parameters: [] },
    ],
    profile,
  );
  calculator.registerFunction("HISTORY", async (properties, months, layout) =>
    (layout === "wide" ? wideHistory : history)(Number(properties), Number(months)),
  );
  calculator.registerFunction("FORECAST", async (months) => [
    ["date", "rent_growth_rate_yoy", "rent_growth_rate_yoy_downside", "rent_growth_rate_yoy_upside"],
    ...Array.from({ length: Number(months) }, (_, m) => [
      46023 + 30 * m,
      0.03,
      0.01 - m / 1000,
      0.05 + m / 1000,
    ]),
  ]);
  calculator.registerFunction("MARKETS", async (count) => [
    ["id", "name", "geo_type", "rent_avg_t30"],
    ...Array.from({ length: Number(count) }, (_, m) => [m + 1, `Market ${m + 1}`, "MSA", 2000 - 10 * m]),
  ]);
  calculator.registerFunction("UNITS", async (count) => [
    ["property_id", "subject_property", "property_name", "sq_ft", "min_rent"],
    [1, true, "The Dylan", 700, 1800],
    [1, true, "The Dylan", 900, 2100],
    ...Array.from({ length: Number(count) }, (_, u) => [2, false, "Oak Court", 600 + 50 * u, 1500 + 40 * u]),
  ]);
  calculator.registerFunction("NARRATIVE", async () => "Rents rose.");
  const bridge: HostBridge = {
    workbook,
    profile,
    outside: { browserWindows: [], windowOpens: [], blobDownloads: [] },
    registerFunction: (id, implementation) => calculator.registerFunction(id, implementation),
  };
  const excel = excelNamespace(bridge);
  Object.assign(globalThis, { Office: officeNamespace(bridge) });
  const run = <T>(batch: (context: Excel.RequestContext) => Promise<T>) =>
    excel.run((context: StandInRequestContext) => batch(context as unknown as Excel.RequestContext));
  const calculated = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    while (calculator.calculatingCount() > 0) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  const enter = async (cell: string, formula: string) => {
    const column = cell.charCodeAt(0) - 65;
    workbook.enter("Sheet1", Number(cell.slice(1)) - 1, column, formula);
    await calculated();
  };
  const chartAt = (cell: string, kind: Parameters<typeof chartBlock>[2], field?: string) =>
    run(async (context) => {
      const column = cell.charCodeAt(0) - 65;
      const anchor = context.workbook.worksheets
        .getItem("Sheet1")
        .getRangeByIndexes(Number(cell.slice(1)) - 1, column, 1, 1);
      await chartBlock(context, anchor, kind, field === undefined ? {} : { field }, CHART_LAYOUTS);
    });
  /** What each series of the sheet's only chart reads now: its name, point count, first and last values. */
  const drawn = (chart: ChartRecord | undefined = workbook.sheet("Sheet1").charts[0]) => {
    const read = (ref: CellReference | undefined) => {
      if (!ref) return [];
      const sheet = workbook.sheet(ref.sheet);
      const cells: unknown[] = [];
      for (let r = 0; r < ref.rect.rowCount; r++)
        for (let c = 0; c < ref.rect.columnCount; c++)
          cells.push(sheet.cell(ref.rect.row + r, ref.rect.column + c)?.value);
      return cells;
    };
    return chart?.series.map((series) => {
      const values = read(series.values);
      const xs = read(series.xValues);
      return {
        name: series.name,
        count: values.length,
        first: [xs[0], values[0]],
        last: [xs.at(-1), values.at(-1)],
      };
    });
  };
  return { workbook, calculator, run, calculated, enter, chartAt, drawn };
}

afterEach(() => {
  delete (globalThis as { Office?: unknown }).Office;
});

describe("charts of RENT blocks", () => {
  it("charts a long history as one line per property, and follows a spill that grows and shrinks", async () => {
    const { workbook, enter, chartAt, drawn, run } = host();
    await enter("A1", "=RENT.HISTORY(2, 3)");
    await chartAt("A1", "history");
    const chart = workbook.sheet("Sheet1").charts[0];
    expect(chart?.type).toBe("XYScatterLinesNoMarkers");
    expect(chart?.name).toBe("RENT history A1");
    expect(chart?.title).toBe("Avg rent ($) over time");
    expect(drawn()).toEqual([
      { name: "100001", count: 3, first: [46023, 1500], last: [46083, 1502] },
      { name: "100002", count: 3, first: [46023, 1600], last: [46083, 1602] },
    ]);

    await enter("A1", "=RENT.HISTORY(3, 5)");
    // Excel leaves a chart on its old cells until its series are pointed again.
    expect(drawn()?.length).toBe(2);
    expect(await run((context) => refreshBlockCharts(context))).toEqual({
      repointed: 1,
      problems: 0,
      forgotten: 0,
    });
    expect(drawn()).toEqual([
      { name: "100001", count: 5, first: [46023, 1500], last: [46143, 1504] },
      { name: "100002", count: 5, first: [46023, 1600], last: [46143, 1604] },
      { name: "100003", count: 5, first: [46023, 1700], last: [46143, 1704] },
    ]);

    await enter("A1", "=RENT.HISTORY(1, 2)");
    await run((context) => refreshBlockCharts(context));
    expect(drawn()).toEqual([{ name: "100001", count: 2, first: [46023, 1500], last: [46053, 1501] }]);
    // The same chart all along, and a pass with nothing changed changes nothing.
    expect(workbook.sheet("Sheet1").charts).toHaveLength(1);
    expect(await run((context) => refreshBlockCharts(context))).toEqual({
      repointed: 0,
      problems: 0,
      forgotten: 0,
    });
  });

  it("charts a wide history as a line per property over its period columns, and follows periods and rows", async () => {
    const { workbook, enter, chartAt, drawn, run } = host();
    await enter("A1", '=RENT.HISTORY(2, 3, "wide")');
    await chartAt("A1", "history");
    const chart = workbook.sheet("Sheet1").charts[0];
    expect(chart?.type).toBe("Line");
    expect(chart?.title).toBe("Avg rent ($) over time");
    expect(drawn()).toEqual([
      { name: "100001", count: 3, first: [46023, 1500], last: [46083, 1502] },
      { name: "100002", count: 3, first: [46023, 1600], last: [46083, 1602] },
    ]);

    // More periods and rows: the columns are worked out from the new header.
    await enter("A1", '=RENT.HISTORY(3, 5, "wide")');
    expect(await run((context) => refreshBlockCharts(context, CHART_LAYOUTS))).toMatchObject({
      repointed: 1,
    });
    expect(drawn()).toEqual([
      { name: "100001", count: 5, first: [46023, 1500], last: [46143, 1504] },
      { name: "100002", count: 5, first: [46023, 1600], last: [46143, 1604] },
      { name: "100003", count: 5, first: [46023, 1700], last: [46143, 1704] },
    ]);

    // Turned long, the same chart reads the long layout (a scatter of dates); turned wide again, lines again.
    await enter("A1", "=RENT.HISTORY(1, 2)");
    await run((context) => refreshBlockCharts(context, CHART_LAYOUTS));
    expect(workbook.sheet("Sheet1").charts[0]?.type).toBe("XYScatterLinesNoMarkers");
    expect(drawn()).toEqual([{ name: "100001", count: 2, first: [46023, 1500], last: [46053, 1501] }]);
    await enter("A1", '=RENT.HISTORY(1, 4, "wide")');
    await run((context) => refreshBlockCharts(context, CHART_LAYOUTS));
    expect(drawn()).toEqual([{ name: "100001", count: 4, first: [46023, 1500], last: [46113, 1503] }]);
    expect(workbook.sheet("Sheet1").charts.map((each) => each.type)).toEqual(["Line"]);
  });

  it("follows recalculations by itself once following (worksheets.onCalculated)", async () => {
    const { enter, chartAt, drawn, run } = host();
    await enter("A1", "=RENT.MARKETS(3)");
    await chartAt("A1", "comparison");
    // Quiet for 20 ms rather than 300 ms: the rule is the same, the test waits less.
    await run((context) => followBlockCharts(context, run, { settleMs: 20 }));
    await enter("A1", "=RENT.MARKETS(5)");
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(drawn()).toEqual([
      { name: "Asking rent, avg 30 d ($)", count: 5, first: ["Market 1", 2000], last: ["Market 5", 1960] },
    ]);
  });

  it("charts a forecast as its base line with the downside and upside dashed around it", async () => {
    const { workbook, enter, chartAt, drawn, run } = host();
    await enter("B2", "=RENT.FORECAST(4)");
    await chartAt("B2", "forecast");
    const chart = workbook.sheet("Sheet1").charts[0];
    expect(chart?.series.map((series) => [series.name, series.lineStyle])).toEqual([
      ["Rent growth YoY downside (%)", "Dash"],
      ["Rent growth YoY (%)", "Continuous"],
      ["Rent growth YoY upside (%)", "Dash"],
    ]);
    expect(drawn()?.[1]).toEqual({
      name: "Rent growth YoY (%)",
      count: 4,
      first: [46023, 0.03],
      last: [46113, 0.03],
    });
    await enter("B2", "=RENT.FORECAST(2)");
    await run((context) => refreshBlockCharts(context));
    expect(drawn()?.map((series) => series.count)).toEqual([2, 2, 2]);
  });

  it("charts units as rent against size with the subject property a series of its own", async () => {
    const { enter, chartAt, drawn } = host();
    await enter("A1", "=RENT.UNITS(3)");
    await chartAt("A1", "rentBySize");
    expect(drawn()).toEqual([
      { name: "Subject: The Dylan", count: 2, first: [700, 1800], last: [900, 2100] },
      { name: "Comps", count: 3, first: [600, 1500], last: [700, 1580] },
    ]);
  });

  it("refuses a block that shows no table, and a figure the block does not have, saying why", async () => {
    const { workbook, enter, chartAt } = host();
    await enter("A1", "=RENT.NARRATIVE()");
    await expect(chartAt("A1", "history")).rejects.toThrow(ChartBlockError);
    await enter("C1", "=RENT.MARKETS(2)");
    await expect(chartAt("C1", "comparison", "occupancy")).rejects.toThrow(
      /no metric "occupancy"; it has rent_avg_t30/,
    );
    expect(workbook.sheet("Sheet1").charts).toHaveLength(0);
  });

  it("(the stand-in) refuses what Excel refuses: a series over several rows and columns", async () => {
    const { enter, run } = host();
    await enter("A1", "=RENT.MARKETS(3)");
    await expect(
      run(async (context) => {
        const sheet = context.workbook.worksheets.getItem("Sheet1");
        const chart = sheet.charts.add("BarClustered", sheet.getRangeByIndexes(1, 3, 3, 1), "Columns");
        chart.series.add("two columns").setValues(sheet.getRangeByIndexes(1, 2, 3, 2));
        await context.sync();
      }),
    ).rejects.toThrow(/one row or one column/);
  });

  it("keeps a chart's as-of while none is known (a reloaded pane), and changes nothing then", async () => {
    const { workbook, enter, run } = host();
    await enter("A1", "=RENT.MARKETS(3)");
    await run(async (context) => {
      const anchor = context.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(0, 0, 1, 1);
      await chartBlock(context, anchor, "comparison", { asOf: "as of 2026-11-27" });
    });
    const title = () => workbook.sheet("Sheet1").charts[0]?.title;
    expect(title()).toBe("Asking rent, avg 30 d ($) by market, as of 2026-11-27");
    const settings = JSON.stringify([...workbook.settings]);
    expect(await run((context) => refreshBlockCharts(context, { asOf: () => undefined }))).toEqual({
      repointed: 0,
      problems: 0,
      forgotten: 0,
    });
    expect(title()).toBe("Asking rent, avg 30 d ($) by market, as of 2026-11-27");
    expect(JSON.stringify([...workbook.settings])).toBe(settings);
    await run((context) => refreshBlockCharts(context, { asOf: () => "as of 2026-11-28" }));
    expect(title()).toBe("Asking rent, avg 30 d ($) by market, as of 2026-11-28");
  });
});
