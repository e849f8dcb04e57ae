/**
 * "Chart this block" in Chromium over the stand-in: for each kind of block, the pane adds a native chart (the
 * stand-in's Excel chart objects, drawn by the host page's SVG renderer) whose series match the block: how many,
 * how many points each, and the first and last points' values. Then the block's formula changes so that its
 * spill grows or shrinks, and the chart follows it by itself (the add-in's worksheets.onCalculated handler).
 */
import { parseCellAddress } from "../../src/excel/a1";
import type { CellValue } from "../host/workbook/workbook";
import {
  SETUP_TIMEOUT_MS,
  CELL_TIMEOUT_MS,
  allCalculated,
  newSheet,
  openPreviewBrowser,
  openTabOf,
  paneAction,
  shownAt,
  signIn,
  typeInto,
  valuesOf,
  type HostWindow,
  type PreviewBrowser,
} from "./support/previewBrowser";
import { rawService } from "../support/rawService";

jest.setTimeout(120_000);

let world: PreviewBrowser;
let compSetId: string;
let austinIds: number[];

beforeAll(async () => {
  world = await openPreviewBrowser();
  const raw = await rawService(world.preview.sandbox.url, "demo-proplus", "sandbox-secret-proplus");
  const accountId = (await raw.get<{ data: { id: number }[] }>("/accounts")).data[0]?.id ?? 0;
  compSetId = String(
    (await raw.get<{ data: { id: string }[] }>(`/accounts/${accountId}/comp_sets`)).data[0]?.id,
  );
  austinIds = (
    await raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: accountId,
      city: "Austin",
      per_page: 20,
    })
  ).data;
  await signIn(world, "demo-proplus", "sandbox-secret-proplus");
}, SETUP_TIMEOUT_MS);

afterAll(() => world?.close());

type Point = [CellValue | null, number | null];
interface DrawnSeries {
  name: string;
  count: number;
  first: Point | undefined;
  last: Point | undefined;
}

/** The charts the host page draws on the active sheet: title and each series as its SVG carries it. */
function drawnCharts() {
  return world.page.evaluate(() =>
    [...document.querySelectorAll("#chart-layer figure")].map((figure) => ({
      name: (figure as HTMLElement).dataset.chartName ?? "",
      title: figure.querySelector(".chart-title")?.textContent ?? "",
      valueAxis: figure.querySelector(".value-axis-title")?.textContent ?? "",
      series: [...figure.querySelectorAll("g.chart-series")].map((group) => {
        const points = JSON.parse(group.getAttribute("data-points") ?? "[]") as [unknown, unknown][];
        return {
          name: group.getAttribute("data-series-name") ?? "",
          lineStyle: group.getAttribute("data-line-style") ?? "",
          count: points.length,
          first: points[0],
          last: points.at(-1),
        };
      }),
    })),
  );
}

/** What a series drawn from rows `rows` of the block should show: [x, y] of its first and last rows. */
function expectedSeries(name: string, rows: CellValue[][], x: number, y: number): DrawnSeries {
  const point = (row: CellValue[] | undefined): Point => {
    const value = row?.[y];
    const key = row?.[x] ?? null;
    return [key === "" ? null : key, typeof value === "number" ? value : null];
  };
  return { name, count: rows.length, first: point(rows[0]), last: point(rows.at(-1)) };
}

/** Runs of consecutive rows with the same key, in order. */
function runs(rows: CellValue[][], key: (row: CellValue[]) => string): CellValue[][][] {
  const found: CellValue[][][] = [];
  for (const row of rows) {
    const last = found.at(-1);
    if (last && key(last[0] as CellValue[]) === key(row)) last.push(row);
    else found.push([row]);
  }
  return found;
}

/** The block at A1 of the sheet once calculated: its header and rows. */
async function block(sheet: string): Promise<{ header: string[]; rows: CellValue[][] }> {
  await allCalculated(world.page);
  const table = valuesOf(await shownAt(world.page, sheet, "A1"));
  if (table.length < 2) throw new Error(`A1 shows ${JSON.stringify(table)}`);
  return { header: (table[0] ?? []).map(String), rows: table.slice(1) };
}

/**
 * Selects a cell of the block (not its anchor: any of its cells charts it) and asks the pane for its chart, the
 * bars ordered `order` ("block", "largest", "smallest").
 */
async function chartThisBlock(cell: string, field = "", order = "block"): Promise<string> {
  await world.page.locator(`#grid td[data-address="${cell}"]`).click();
  await openTabOf(world, "chart-field");
  await world.pane.locator("#chart-field input").fill(field);
  await world.pane.locator("#chart-order").selectOption(order);
  return paneAction(world, "chart-button");
}

/** The formula at a cell of the sheet, as the workbook holds it. */
function formulaAt(sheet: string, address: string): Promise<string | undefined> {
  const { row, column } = parseCellAddress(address);
  return world.page.evaluate(
    ({ sheet, row, column }) =>
      (window as unknown as HostWindow).rentMarketHost.workbook.sheet(sheet).cell(row, column)?.formula,
    { sheet, row, column },
  );
}

/** Every point of the only chart's first series, as drawn: [category, value]. */
async function drawnPoints(): Promise<unknown[]> {
  return world.page.evaluate(() =>
    JSON.parse(document.querySelector("#chart-layer g.chart-series")?.getAttribute("data-points") ?? "[]"),
  ) as Promise<unknown[]>;
}

/** Waits until the only chart's series are `expected` (the chart follows a recalculation after a moment). */
async function chartShows(expected: DrawnSeries[]): Promise<void> {
  const deadline = Date.now() + CELL_TIMEOUT_MS;
  let seen: unknown;
  while (Date.now() < deadline) {
    const charts = await drawnCharts();
    seen = charts.map((chart) =>
      chart.series.map(({ name, count, first, last }) => ({ name, count, first, last })),
    );
    if (JSON.stringify(seen) === JSON.stringify([expected])) return;
    await world.page.waitForTimeout(100);
  }
  expect(seen).toEqual([expected]);
}

it("charts a floor plan history as one line per floor plan, and follows it when the weeks shrink", async () => {
  const sheet = await newSheet(world.page);
  // The service keeps a few months of floor plan history, up to yesterday: weeks ending yesterday.
  const day = (daysAgo: number) => {
    const date = new Date(Date.now() - daysAgo * 86_400_000);
    return `DATE(${date.getUTCFullYear()},${date.getUTCMonth() + 1},${date.getUTCDate()})`;
  };
  const formula = (weeks: number) =>
    `=RENT.FLOORPLANHISTORY(${compSetId}, "asking_rent", ${day(7 * weeks)}, ${day(1)}, "week")`;
  await typeInto(world.page, "A1", formula(8));
  const expectedFor = async () => {
    const { header, rows } = await block(sheet);
    const at = (name: string) => header.findIndex((cell) => cell === name || cell.startsWith(`${name} (`));
    const date = at("date");
    const name = at("property_name");
    const plan = at("floor_plan");
    const rent = at("asking_rent");
    return runs(rows, (row) =>
      JSON.stringify(header.map((_, i) => (i === date || i === rent ? "" : row[i]))),
    ).map((run) => expectedSeries(`${String(run[0]?.[name])} ${String(run[0]?.[plan])}`, run, date, rent));
  };
  const before = await expectedFor();
  expect(before.length).toBeGreaterThan(1);
  expect(before[0]?.count).toBeGreaterThan(2);

  expect(await chartThisBlock("B3")).toMatch(/^Charted .*!A1: a line per property over time/);
  await chartShows(before);
  const [chart] = await drawnCharts();
  expect(chart?.title).toMatch(/^Asking rent.*\(\$\) over time, as of \d{4}-\d\d-\d\d$/);

  await typeInto(world.page, "A1", formula(4));
  const after = await expectedFor();
  expect(after[0]?.count).toBeLessThan(before[0]?.count ?? 0);
  await chartShows(after);
});

it("charts a wide floor plan history as a line per floor plan and field, and follows fewer periods", async () => {
  const sheet = await newSheet(world.page);
  const day = (daysAgo: number) => {
    const date = new Date(Date.now() - daysAgo * 86_400_000);
    return `DATE(${date.getUTCFullYear()},${date.getUTCMonth() + 1},${date.getUTCDate()})`;
  };
  const formula = (weeks: number) =>
    `=RENT.FLOORPLANHISTORY(${compSetId}, "asking_rent, net_effective_rent", ${day(7 * weeks)}, ${day(1)}, ` +
    `"week", , , "wide")`;
  const LABELS: Record<string, string> = {
    asking_rent: "Asking rent",
    net_effective_rent: "Net effective rent",
  };
  // keys (property_id, property_name, floor_plan, bedroom_count, bathroom_count) | field | one column per week.
  const expectedFor = async () => {
    const { header, rows } = await block(sheet);
    const periods = header.length - 6;
    const point = (row: CellValue[], column: number): Point => [
      Number(header[column]),
      typeof row[column] === "number" ? (row[column] as number) : null,
    ];
    return {
      periods,
      series: rows.map((row) => ({
        name: `${String(row[1])} ${String(row[2])} ${LABELS[String(row[5])] ?? String(row[5])}`,
        count: periods,
        first: point(row, 6),
        last: point(row, header.length - 1),
      })),
    };
  };
  await typeInto(world.page, "A1", formula(8));
  const before = await expectedFor();
  expect(before.periods).toBeGreaterThan(4);
  expect(before.series[0]?.first[1]).toEqual(expect.any(Number));
  // Both fields kept: each floor plan's rows for asking rent, then for net effective rent.
  expect(before.series.filter((each) => each.name.endsWith(" Net effective rent")).length).toBe(
    before.series.length / 2,
  );
  expect(await chartThisBlock("H3")).toMatch(/^Charted .*!A1: a line per property over time/);
  await chartShows(before.series);
  const [chart] = await drawnCharts();
  expect(chart?.title).toMatch(/^Asking rent \(\$\), Net effective rent \(\$\) over time/);

  await typeInto(world.page, "A1", formula(4));
  const after = await expectedFor();
  expect(after.periods).toBeLessThan(before.periods);
  await chartShows(after.series);

  // The figure asked for keeps that field's rows, a line per floor plan.
  await chartThisBlock("A1", "net_effective_rent");
  const plans = after.series.filter((each) => each.name.endsWith(" Net effective rent"));
  await chartShows(plans.map((each) => ({ ...each, name: each.name.replace(/ Net effective rent$/, "") })));
});

it("charts a forecast as its base line with the downside and upside dashed, and follows a shorter one", async () => {
  const sheet = await newSheet(world.page);
  const fields = "rent_growth_rate_yoy, rent_growth_rate_yoy_downside, rent_growth_rate_yoy_upside";
  let id = 0;
  for (const candidate of austinIds) {
    await typeInto(world.page, "A1", `=RENT.FORECAST(${candidate}, "${fields}", "avg", "quarter")`);
    await allCalculated(world.page);
    const shown = valuesOf(await shownAt(world.page, sheet, "A1"));
    if (shown.slice(1).some((row) => typeof row[1] === "number")) {
      id = candidate;
      break;
    }
  }
  expect(id).toBeGreaterThan(0);
  const expectedFor = async () => {
    const { rows } = await block(sheet);
    return [
      expectedSeries("Rent growth YoY downside (%)", rows, 0, 2),
      expectedSeries("Rent growth YoY (%)", rows, 0, 1),
      expectedSeries("Rent growth YoY upside (%)", rows, 0, 3),
    ];
  };
  const quarters = await expectedFor();
  await chartThisBlock("A1");
  await chartShows(quarters);
  const [chart] = await drawnCharts();
  expect(chart?.series.map((series) => series.lineStyle)).toEqual(["Dash", "Continuous", "Dash"]);
  expect(chart?.title).toMatch(/^Rent growth YoY \(%\) forecast: base, downside and upside/);

  await typeInto(world.page, "A1", `=RENT.FORECAST(${id}, "${fields}", "avg", "year")`);
  const years = await expectedFor();
  expect(years[0]?.count).toBeLessThan(quarters[0]?.count ?? 0);
  await chartShows(years);
});

it("charts markets as bars in the block's order, and follows a longer list", async () => {
  const sheet = await newSheet(world.page);
  await typeInto(world.page, "A1", '=RENT.MARKETS("rent_avg_t30", "limit=5")');
  const expectedFor = async () => {
    const { rows } = await block(sheet);
    return [expectedSeries("Asking rent, avg 30 d ($)", rows, 1, 3)];
  };
  const five = await expectedFor();
  expect(five[0]?.count).toBe(5);
  await chartThisBlock("D4");
  await chartShows(five);

  await typeInto(world.page, "A1", '=RENT.MARKETS("rent_avg_t30", "limit=8")');
  const eight = await expectedFor();
  expect(eight[0]?.count).toBe(8);
  await chartShows(eight);
});

it("sorts a comparison's bars by sorting its block: RENT.MARKETS' ranking rewritten, the bars in its order", async () => {
  const sheet = await newSheet(world.page);
  const metrics = "rent_avg_t30, leased_percent_avg_t30";
  await typeInto(world.page, "A1", `=RENT.MARKETS("${metrics}", "states=TX; sort=leased_percent_avg_t30")`);
  const before = await block(sheet);
  const rents = (rows: CellValue[][]) => rows.map((row) => row[3] as number);
  const ascending = [...rents(before.rows)].sort((a, b) => a - b);
  // Fewer than the limit (50): every Texas market is listed, so sorting keeps the same markets.
  expect(before.rows.length).toBeGreaterThan(2);
  expect(before.rows.length).toBeLessThan(50);
  expect(rents(before.rows)).not.toEqual(ascending);

  const said = await chartThisBlock("B2", "rent_avg_t30", "smallest");
  expect(said).toContain('its formula now asks RENT.MARKETS for "sort=rent_avg_t30; direction=asc"');
  expect(said).toContain(`All ${before.rows.length} markets that match are listed`);
  expect(await formulaAt(sheet, "A1")).toBe(
    `=RENT.MARKETS("${metrics}", "states=TX; sort=rent_avg_t30; direction=asc")`,
  );
  // The block recalculates in its new order; the bars read its cells, so they are in that order too.
  const deadline = Date.now() + CELL_TIMEOUT_MS;
  let after = await block(sheet);
  while (JSON.stringify(rents(after.rows)) !== JSON.stringify(ascending) && Date.now() < deadline) {
    await world.page.waitForTimeout(100);
    after = await block(sheet);
  }
  expect(rents(after.rows)).toEqual(ascending);
  expect(after.rows.map((row) => row[1]).sort()).toEqual(before.rows.map((row) => row[1]).sort());
  const expected = after.rows.map((row) => [row[1], row[3]]);
  while (JSON.stringify(await drawnPoints()) !== JSON.stringify(expected) && Date.now() < deadline)
    await world.page.waitForTimeout(100);
  expect(await drawnPoints()).toEqual(expected);

  // Largest first: the same markets, the other way round.
  await chartThisBlock("A1", "rent_avg_t30", "largest");
  const descending = [...ascending].reverse();
  while (
    JSON.stringify((await drawnPoints()).map((point) => (point as unknown[])[1])) !==
      JSON.stringify(descending) &&
    Date.now() < deadline + CELL_TIMEOUT_MS
  )
    await world.page.waitForTimeout(100);
  expect((await drawnPoints()).map((point) => (point as unknown[])[1])).toEqual(descending);
  expect((await drawnCharts()).map((chart) => chart.name)).toEqual(["RENT comparison A1"]);
});

it("says when sorting by another figure may list other markets: a block as long as its limit", async () => {
  const sheet = await newSheet(world.page);
  await typeInto(world.page, "A1", '=RENT.MARKETS("rent_avg_t30, leased_percent_avg_t30", "limit=5")');
  expect((await block(sheet)).rows).toHaveLength(5);
  const said = await chartThisBlock("A1", "leased_percent_avg_t30", "largest");
  expect(said).toContain(
    "returns the first 5 (the formula's limit): the block lists the 5 with the largest Leased",
  );
  expect(said).toContain("which may be other markets than before");
  // Whatever markets the ranking lists, the bars are the block's, largest first.
  const deadline = Date.now() + CELL_TIMEOUT_MS;
  const leased = (rows: CellValue[][]) => rows.map((row) => row[4] as number);
  let after = await block(sheet);
  while (
    JSON.stringify(leased(after.rows)) !== JSON.stringify([...leased(after.rows)].sort((a, b) => b - a)) &&
    Date.now() < deadline
  ) {
    await world.page.waitForTimeout(100);
    after = await block(sheet);
  }
  expect(leased(after.rows)).toEqual([...leased(after.rows)].sort((a, b) => b - a));
  const expected = after.rows.map((row) => [row[1], row[4]]);
  while (JSON.stringify(await drawnPoints()) !== JSON.stringify(expected) && Date.now() < deadline)
    await world.page.waitForTimeout(100);
  expect(await drawnPoints()).toEqual(expected);
});

it("says what to set when a market block's options come from cells, and sorts nothing", async () => {
  const sheet = await newSheet(world.page);
  await typeInto(world.page, "H1", "limit");
  await typeInto(world.page, "I1", "4");
  await typeInto(world.page, "A1", '=RENT.MARKETS("rent_avg_t30", H1:I1)');
  expect((await block(sheet)).rows).toHaveLength(4);
  await expect(chartThisBlock("A1", "", "largest")).rejects.toThrow(
    /takes its options from H1:I1, which the pane does not rewrite: set sort=rent_avg_t30; direction=desc there/,
  );
  expect(await formulaAt(sheet, "A1")).toBe('=RENT.MARKETS("rent_avg_t30", H1:I1)');
  expect(await drawnCharts()).toEqual([]);
});

it("charts a comp set's units as rent against size with the subject marked, and follows a filter", async () => {
  const sheet = await newSheet(world.page);
  await typeInto(world.page, "A1", `=RENT.UNITS(${compSetId})`);
  const expectedFor = async () => {
    const { header, rows } = await block(sheet);
    const subject = header.indexOf("subject_property");
    const name = header.indexOf("property_name");
    const size = header.indexOf("sq_ft");
    const rent = header.indexOf("min_rent");
    const group = (row: CellValue[]) => (row[subject] === true ? `Subject: ${String(row[name])}` : "Comps");
    return runs(rows, group).map((run) => expectedSeries(group(run[0] as CellValue[]), run, size, rent));
  };
  const all = await expectedFor();
  expect(all.some((series) => series.name.startsWith("Subject: "))).toBe(true);
  await chartThisBlock("A1");
  await chartShows(all);

  await typeInto(world.page, "A1", `=RENT.UNITS(${compSetId}, 1)`);
  const fewer = await expectedFor();
  expect(fewer.reduce((sum, series) => sum + series.count, 0)).toBeLessThan(
    all.reduce((sum, series) => sum + series.count, 0),
  );
  await chartShows(fewer);
  // Sorting is a comparison's: a comp set's units are charted in their own order, and the formula is left alone.
  await expect(chartThisBlock("A1", "", "largest")).rejects.toThrow(
    /Sorting is for a market comparison's bars/,
  );
  expect(await formulaAt(sheet, "A1")).toBe(`=RENT.UNITS(${compSetId}, 1)`);
});

it("says why when the selected cell is no block a chart shows, and adds no chart", async () => {
  await newSheet(world.page);
  await typeInto(world.page, "A1", "=RENT.ACCOUNTS()");
  await allCalculated(world.page);
  await expect(chartThisBlock("A1")).rejects.toThrow(
    /is no block a chart shows: select a cell of a RENT\.HISTORY/,
  );
  expect(await drawnCharts()).toEqual([]);
});

it("finds its chart again after a reload, and follows the block from there", async () => {
  const { page, pane } = world;
  const sheet = await newSheet(page);
  await typeInto(page, "A1", '=RENT.MARKETS("rent_avg_t30", "limit=3")');
  const expectedFor = async () => {
    const { rows } = await block(sheet);
    return [expectedSeries("Asking rent, avg 30 d ($)", rows, 1, 3)];
  };
  const three = await expectedFor();
  await chartThisBlock("A1");
  await chartShows(three);

  // The workbook comes back with its chart; the reloaded pane knows it is the block's.
  await page.reload();
  await pane.locator("#sign-in-button").waitFor();
  await page.locator("#sheet-tabs .tab", { hasText: sheet }).click();
  await chartShows(three);
  await signIn(world, "demo-proplus", "sandbox-secret-proplus");
  await typeInto(page, "A1", '=RENT.MARKETS("rent_avg_t30", "limit=6")');
  const six = await expectedFor();
  expect(six[0]?.count).toBe(6);
  await chartShows(six);
  // Still the one chart, by its name.
  expect((await drawnCharts()).map((chart) => chart.name)).toEqual(["RENT comparison A1"]);
});
