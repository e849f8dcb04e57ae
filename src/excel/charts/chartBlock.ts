import { cellAddress, parseCellAddress, type CellRect } from "../a1";
import { RECT_PROPERTIES, rectOf } from "../rentFormulas";
import type { ChartKind } from "./blockKind";
import { keepRememberedCharts, readRememberedCharts, sameChart, type RememberedChart } from "./chartMemory";
import {
  isChartProblem,
  planChart,
  type Block,
  type BlockLayouts,
  type ChartOptions,
  type ChartPlan,
  type ChartProblem,
} from "./chartPlan";

/** A block the pane cannot chart as asked: the message says why, in the person's words. */
export class ChartBlockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChartBlockError";
  }
}

const KIND_WORDS: Readonly<Record<ChartKind, string>> = {
  history: "history",
  forecast: "forecast",
  comparison: "comparison",
  rentBySize: "rent by size",
};

/** The name a block's chart goes by on its sheet: the same block and kind always find the same chart. */
export function blockChartName(kind: ChartKind, anchor: string): string {
  return `RENT ${KIND_WORDS[kind]} ${anchor}`;
}

/** Where a new chart goes: beside the block, one column to its right, 8 columns by 16 rows. */
const CHART_COLUMNS = 8;
const CHART_ROWS = 16;

/** A block as read from the sheet, with the formula that spills it (which says how its columns are laid out). */
interface ReadBlock extends Block {
  readonly formula: string | undefined;
}

/**
 * The block whose anchor is `row`, `column` of `sheet`: its spill's cells and what they hold; undefined when the
 * cell spills nothing (an error, one value, a formula still calculating).
 */
async function readBlock(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  sheetName: string,
  row: number,
  column: number,
): Promise<ReadBlock | undefined> {
  const anchor = sheet.getRangeByIndexes(row, column, 1, 1);
  anchor.load("formulas");
  const spill = anchor.getSpillingToRangeOrNullObject();
  spill.load([...RECT_PROPERTIES, "values"]);
  await context.sync();
  if (spill.isNullObject) return undefined;
  const formula: unknown = anchor.formulas[0]?.[0];
  return {
    sheetName,
    rect: rectOf(spill),
    values: spill.values,
    formula: typeof formula === "string" ? formula : undefined,
  };
}

/**
 * The plan of a block's chart as it is now: a history block's layout (long, or wide with a column per period) is
 * worked out from its header every time, since a recalculation may change its periods or its layout.
 */
function planBlock(
  block: ReadBlock,
  kind: ChartKind,
  options: ChartOptions,
  layouts: BlockLayouts,
): ChartPlan | ChartProblem {
  const wideHistory =
    kind === "history" ? layouts.wideHistoryOf?.(block.formula, block.values[0] ?? []) : undefined;
  return planChart(block, kind, wideHistory ? { ...options, wideHistory } : options);
}

/** What a plan points the chart at, to tell whether a recalculation changed any of it. */
function drawnOf(plan: ChartPlan): string {
  return JSON.stringify(plan);
}

const rangeOf = (sheet: Excel.Worksheet, rect: CellRect): Excel.Range =>
  sheet.getRangeByIndexes(rect.row, rect.column, rect.rowCount, rect.columnCount);

/**
 * Points the chart at the plan's cells and titles: the series it has are reused in order, missing ones added,
 * extra ones deleted (ChartSeriesCollection.add, ChartSeries.setValues/setXAxisValues/delete: ExcelApi 1.7;
 * ChartAxis.numberFormat: 1.8). The type is set too (Chart.chartType, 1.7): a history block turned from long to
 * wide is charted as lines over shared periods, not as a scatter.
 */
async function applyPlan(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  chart: Excel.Chart,
  plan: ChartPlan,
): Promise<void> {
  chart.chartType = plan.type;
  chart.title.text = plan.title;
  chart.axes.valueAxis.title.text = plan.valueAxis.title;
  chart.axes.valueAxis.numberFormat = plan.valueAxis.numberFormat;
  chart.axes.categoryAxis.title.text = plan.categoryAxis.title;
  if (plan.categoryAxis.numberFormat !== undefined)
    chart.axes.categoryAxis.numberFormat = plan.categoryAxis.numberFormat;
  chart.axes.categoryAxis.reversePlotOrder = plan.categoryAxis.reversed === true;
  chart.legend.position = "Bottom";
  const existing = chart.series;
  existing.load("items");
  await context.sync();
  const have = existing.items;
  plan.series.forEach((wanted, index) => {
    const series = have[index] ?? chart.series.add(wanted.name);
    series.name = wanted.name;
    series.setXAxisValues(rangeOf(sheet, wanted.xValues));
    series.setValues(rangeOf(sheet, wanted.values));
    series.format.line.lineStyle = wanted.dashed ? "Dash" : "Continuous";
  });
  for (const extra of have.slice(plan.series.length)) extra.delete();
  await context.sync();
}

/** A chart whose block no longer shows a table: no series, and a title that says why. */
async function showProblem(
  context: Excel.RequestContext,
  chart: Excel.Chart,
  problem: string,
): Promise<void> {
  chart.title.text = problem;
  const existing = chart.series;
  existing.load("items");
  await context.sync();
  for (const series of existing.items) series.delete();
  await context.sync();
}

/**
 * Charts the block anchored at `anchor` (a RENT formula's cell, or any cell of its spill's first cell) as a real
 * Excel chart on the block's sheet, named so the same block and kind find it again (charting it again re-points
 * that chart, never adds a second), and remembered in the workbook's settings so that `refreshBlockCharts`
 * follows the block when a recalculation changes its spill. Fails with a ChartBlockError when the block shows no
 * table, or lacks what the kind needs.
 */
export async function chartBlock(
  context: Excel.RequestContext,
  anchor: Excel.Range,
  kind: ChartKind,
  options: ChartOptions = {},
  layouts: BlockLayouts = {},
): Promise<Excel.Chart> {
  const sheet = anchor.worksheet;
  sheet.load("name");
  anchor.load("rowIndex,columnIndex");
  await context.sync();
  const address = cellAddress(anchor.rowIndex, anchor.columnIndex);
  const block = await readBlock(context, sheet, sheet.name, anchor.rowIndex, anchor.columnIndex);
  if (!block) throw new ChartBlockError(`${address} shows no table to chart: it has spilled no rows.`);
  const plan = planBlock(block, kind, options, layouts);
  if (isChartProblem(plan)) throw new ChartBlockError(plan.problem);
  const name = blockChartName(kind, address);
  let chart = sheet.charts.getItemOrNullObject(name);
  await context.sync();
  if (chart.isNullObject) {
    const first = plan.series[0] as (typeof plan.series)[number];
    chart = sheet.charts.add(plan.type, rangeOf(sheet, first.values), "Columns");
    chart.name = name;
    const column = block.rect.column + block.rect.columnCount + 1;
    chart.setPosition(
      sheet.getRangeByIndexes(block.rect.row, column, 1, 1),
      sheet.getRangeByIndexes(block.rect.row + CHART_ROWS - 1, column + CHART_COLUMNS - 1, 1, 1),
    );
  }
  await applyPlan(context, sheet, chart, plan);
  const remembered: RememberedChart = {
    name,
    sheetName: sheet.name,
    anchor: address,
    kind,
    ...(options.field === undefined ? {} : { field: options.field }),
    ...(options.asOf === undefined ? {} : { asOf: options.asOf }),
    drawn: drawnOf(plan),
  };
  const others = (await readRememberedCharts(context)).filter((each) => !sameChart(each, remembered));
  keepRememberedCharts(context, [...others, remembered]);
  await context.sync();
  return chart;
}

export interface RefreshChartsOptions extends BlockLayouts {
  /** What a block's figures are as of, in words, for its chart's title. */
  readonly asOf?: (sheetName: string, anchor: string) => string | undefined;
}

/** What a pass over the workbook's block charts did. */
export interface RefreshChartsResult {
  /** Charts pointed at new cells or titles. */
  readonly repointed: number;
  /** Charts whose block shows no table now (their title says why). */
  readonly problems: number;
  /** Charts the person deleted, forgotten. */
  readonly forgotten: number;
}

/**
 * Follows each remembered chart's block: Excel charts take no spill reference (`B3#`) through Office.js, so a
 * spill that grew or shrank leaves a chart on its old cells until its series are pointed again. Each block is
 * read and planned again; a chart whose plan changed is re-pointed, one whose block shows no table says why,
 * and one the person deleted is forgotten.
 */
export async function refreshBlockCharts(
  context: Excel.RequestContext,
  options: RefreshChartsOptions = {},
): Promise<RefreshChartsResult> {
  const remembered = await readRememberedCharts(context);
  const kept: RememberedChart[] = [];
  let repointed = 0;
  let problems = 0;
  for (const entry of remembered) {
    const sheet = context.workbook.worksheets.getItemOrNullObject(entry.sheetName);
    await context.sync();
    if (sheet.isNullObject) continue;
    const chart = sheet.charts.getItemOrNullObject(entry.name);
    await context.sync();
    if (chart.isNullObject) continue;
    const { row, column } = parseCellAddress(entry.anchor);
    const block = await readBlock(context, sheet, entry.sheetName, row, column);
    const asOf = options.asOf?.(entry.sheetName, entry.anchor) ?? entry.asOf;
    const plan = block
      ? planBlock(
          block,
          entry.kind,
          {
            ...(entry.field === undefined ? {} : { field: entry.field }),
            ...(asOf ? { asOf } : {}),
          },
          options,
        )
      : { problem: `No chart: ${entry.anchor} shows no table now.` };
    const drawn = isChartProblem(plan) ? `problem: ${plan.problem}` : drawnOf(plan);
    if (drawn !== entry.drawn) {
      if (isChartProblem(plan)) {
        await showProblem(context, chart, plan.problem);
        problems++;
      } else {
        await applyPlan(context, sheet, chart, plan);
        repointed++;
      }
    }
    kept.push({ ...entry, ...(asOf === undefined ? {} : { asOf }), drawn });
  }
  const changed = JSON.stringify(kept) !== JSON.stringify(remembered);
  if (changed) {
    keepRememberedCharts(context, kept);
    await context.sync();
  }
  return { repointed, problems, forgotten: remembered.length - kept.length };
}

/** How long calculations must be quiet before the charts are followed: a recalculation is many cell results. */
const SETTLE_MS = 300;

/**
 * Follows the workbook's block charts from now on: after each calculation (WorksheetCollection.onCalculated,
 * ExcelApi 1.8), once calculations have been quiet for a moment, `refreshBlockCharts` runs in a batch of its own
 * (`run` is Excel.run, or the pane's runner). Errors go to `onError`; they never stop the following.
 */
export async function followBlockCharts(
  context: Excel.RequestContext,
  run: <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>,
  options: RefreshChartsOptions & {
    readonly onError?: (error: unknown) => void;
    /** How long calculations must be quiet first (SETTLE_MS unless told). */
    readonly settleMs?: number;
  } = {},
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const pass = () => {
    running = running
      .then(() => run((each) => refreshBlockCharts(each, options)))
      .catch((error: unknown) => options.onError?.(error));
  };
  context.workbook.worksheets.onCalculated.add(async () => {
    clearTimeout(timer);
    timer = setTimeout(pass, options.settleMs ?? SETTLE_MS);
    return Promise.resolve();
  });
  await context.sync();
}
