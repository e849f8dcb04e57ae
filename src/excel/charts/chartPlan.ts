import type { CellRect } from "../a1";
import { labelOf } from "../../api/fieldFacts";
import { axisFormatOf, axisTitleOf, blockColumns, unitOf, type BlockColumn } from "./blockColumns";
import type { ChartKind } from "./blockKind";

/** A block as the workbook shows it: where its spill is (header row included) and what its cells hold. */
export interface Block {
  readonly sheetName: string;
  readonly rect: CellRect;
  readonly values: readonly (readonly unknown[])[];
}

/**
 * Where a history block in its wide layout (`keys... | field | period...`) holds what, as a chart reads it. Which
 * layout a block has is the history functions' to say: `BlockLayouts.wideHistoryOf` tells the chart module.
 */
export interface WideHistory {
  /** The columns naming the property or floor plan, with the key each holds ("id", "property_name"). */
  readonly keyColumns: readonly { readonly index: number; readonly key: string }[];
  /** The column naming each row's field. */
  readonly fieldColumn: number;
  /** One column per period, in order, headed by the period's date. */
  readonly periodColumns: readonly number[];
}

/**
 * How blocks are laid out where the chart module cannot tell by itself: given by the caller (the pane hands the
 * history functions' own reader; src/excel/ does not import src/functions/). Without it, every history block is
 * read in its long layout.
 */
export interface BlockLayouts {
  /** A history block's wide layout from its formula and header row; undefined when it is long (or no history). */
  readonly wideHistoryOf?: (
    formula: string | undefined,
    header: readonly unknown[],
  ) => WideHistory | undefined;
}

export interface ChartOptions {
  /** The figure to chart (a field id or the header as shown); the block's first figure when omitted. */
  readonly field?: string;
  /** What the figures are as of, in words ("as of 28 Nov 2026"): it ends the title. */
  readonly asOf?: string;
  /**
   * A history block in its wide layout: which of its columns are keys, field and periods (wideHistoryOf, from the
   * block's header). Which layout a block has is the history layout's to say; without this, a history block is
   * read in its long layout.
   */
  readonly wideHistory?: WideHistory;
}

/** One series: the cells of its values and of its x values (dates, sizes, names), each one column or one row. */
export interface SeriesPlan {
  readonly name: string;
  readonly values: CellRect;
  readonly xValues: CellRect;
  /** A forecast's downside and upside are drawn dashed around the solid base line. */
  readonly dashed?: boolean;
}

export type ChartType = "XYScatterLinesNoMarkers" | "Line" | "BarClustered" | "XYScatter";

export interface ChartPlan {
  readonly type: ChartType;
  readonly title: string;
  readonly valueAxis: { readonly title: string; readonly numberFormat: string };
  readonly categoryAxis: {
    readonly title: string;
    readonly numberFormat?: string;
    readonly reversed?: boolean;
  };
  readonly series: readonly SeriesPlan[];
}

/** Why a block cannot be charted as asked, in words for the pane. */
export interface ChartProblem {
  readonly problem: string;
}

const DATE_FORMAT = "mmm yyyy";

/** Rows `first`..`last` (within the block) of one column, as sheet cells. */
function cells(block: Block, column: number, first: number, last: number): CellRect {
  return {
    row: block.rect.row + first,
    column: block.rect.column + column,
    rowCount: last - first + 1,
    columnCount: 1,
  };
}

function withAsOf(title: string, options: ChartOptions): string {
  return options.asOf ? `${title}, ${options.asOf}` : title;
}

/** The figure asked for, or the first of `candidates`. */
function pickFigure(
  candidates: readonly BlockColumn[],
  options: ChartOptions,
  what: string,
): BlockColumn | ChartProblem {
  if (options.field !== undefined) {
    const wanted = options.field.trim().toLowerCase();
    const found = candidates.find(
      (column) => column.field.toLowerCase() === wanted || column.header.toLowerCase() === wanted,
    );
    if (found) return found;
    return {
      problem: `This block has no ${what} "${options.field}"; it has ${candidates.map((c) => c.header).join(", ")}.`,
    };
  }
  const first = candidates[0];
  return first ?? { problem: `This block has no ${what} to chart.` };
}

const isProblem = (value: unknown): value is ChartProblem =>
  typeof value === "object" && value !== null && "problem" in value;

/** Columns that say which property, floor plan or market a row is, rather than a figure. */
const IDENTITY_FIELDS = new Set([
  "id",
  "property_id",
  "property_name",
  "floor_plan",
  "floorplan_name",
  "bedroom_count",
  "bathroom_count",
  "name",
  "geo_type",
]);

/** The name of a history series: its floor plan's or property's name where the block has one, else its id. */
function historySeriesName(row: readonly unknown[], identity: readonly BlockColumn[]): string {
  const named = (field: string) => identity.find((column) => column.field === field);
  const parts = [named("property_name") ?? named("id") ?? named("property_id"), named("floor_plan")]
    .filter((column): column is BlockColumn => column !== undefined)
    .map((column) => String(row[column.index] ?? ""));
  return parts.join(" ").trim() || "Series";
}

/**
 * History in its long layout (`date | id | fields...`, one run of rows per property or floor plan): one line per
 * run, dates along the x axis. A scatter with lines, not a line chart: a line chart shares one category axis
 * among its series, and two properties' runs need not have the same dates.
 */
function planHistory(block: Block, columns: BlockColumn[], options: ChartOptions): ChartPlan | ChartProblem {
  const date = columns.find((column) => column.field === "date");
  if (!date)
    return {
      problem:
        "This history block has no date column to chart against, and its header is not a wide history's (a column per period).",
    };
  const identity = columns.filter((column) => IDENTITY_FIELDS.has(column.field));
  const figures = columns.filter((column) => column !== date && !identity.includes(column));
  const figure = pickFigure(figures, options, "figure");
  if (isProblem(figure)) return figure;
  const keyOf = (row: readonly unknown[]) => JSON.stringify(identity.map((column) => row[column.index]));
  const series: SeriesPlan[] = [];
  let start = 1;
  for (let r = 1; r < block.values.length; r++) {
    const row = block.values[r] ?? [];
    const next = block.values[r + 1];
    if (next !== undefined && keyOf(next) === keyOf(row)) continue;
    series.push({
      name: historySeriesName(block.values[start] ?? [], identity),
      values: cells(block, figure.index, start, r),
      xValues: cells(block, date.index, start, r),
    });
    start = r + 1;
  }
  if (series.length === 0) return { problem: "This history block has no rows yet." };
  return {
    type: "XYScatterLinesNoMarkers",
    title: withAsOf(`${axisTitleOf(figure)} over time`, options),
    valueAxis: { title: axisTitleOf(figure), numberFormat: axisFormatOf(figure) },
    categoryAxis: { title: "Date", numberFormat: DATE_FORMAT },
    series,
  };
}

/** A wide history row's name: its floor plan's property and plan, or its property id, from the key columns. */
function wideRowName(row: readonly unknown[], wide: WideHistory): string {
  const key = (name: string) => wide.keyColumns.find((column) => column.key === name);
  const parts = [key("property_name") ?? key("id") ?? key("property_id"), key("floor_plan")]
    .filter((column) => column !== undefined)
    .map((column) => String(row[column.index] ?? ""));
  return parts.join(" ").trim() || "Series";
}

/**
 * History in its wide layout (`keys... | field | period...`, a row per field and property, a column per period):
 * one line per row, the periods' dates (the header's cells) along the shared category axis. With several fields
 * each row is its own line, named by its property and field; a field asked for in Figure keeps that field's rows.
 * Fields in different units share no value axis, so those ask for one instead of drawing one scale for both.
 */
function planWideHistory(block: Block, wide: WideHistory, options: ChartOptions): ChartPlan | ChartProblem {
  const periods = wide.periodColumns;
  const first = Math.min(...periods);
  const last = Math.max(...periods);
  if (periods.length === 0 || last - first + 1 !== periods.length)
    return { problem: "This history block's periods are not side by side: a series reads one run of cells." };
  const rows = block.values.slice(1).map((row, index) => ({
    row,
    at: index + 1,
    field: blockColumns([row[wide.fieldColumn]])[0] as BlockColumn,
  }));
  if (rows.length === 0) return { problem: "This history block has no rows yet." };
  const fields = [...new Map(rows.map(({ field }) => [field.field, field])).values()];
  let charted = fields;
  if (options.field !== undefined) {
    const wanted = options.field.trim().toLowerCase();
    const named = (blockColumns([options.field])[0] as BlockColumn).field.toLowerCase();
    charted = fields.filter(
      (field) => field.field.toLowerCase() === named || field.header.toLowerCase() === wanted,
    );
    if (charted.length === 0)
      return {
        problem: `This block has no figure "${options.field}"; it has ${fields.map((f) => f.header).join(", ")}.`,
      };
  }
  const units = new Set(charted.map(unitOf));
  if (units.size > 1)
    return {
      problem:
        `This history block holds figures in different units (${charted.map(axisTitleOf).join(", ")}), ` +
        "which share no axis: name one in Figure to chart it.",
    };
  const several = charted.length > 1;
  const cellsOfRow = (at: number): CellRect => ({
    row: block.rect.row + at,
    column: block.rect.column + first,
    rowCount: 1,
    columnCount: periods.length,
  });
  const series = rows
    .filter(({ field }) => charted.some((each) => each.field === field.field))
    .map(({ row, at, field }) => ({
      name: several ? `${wideRowName(row, wide)} ${labelOf(field.field)}` : wideRowName(row, wide),
      values: cellsOfRow(at),
      xValues: cellsOfRow(0),
    }));
  const figure = charted[0] as BlockColumn;
  const title = charted.map(axisTitleOf).join(", ");
  return {
    type: "Line",
    title: withAsOf(`${title} over time`, options),
    valueAxis: { title, numberFormat: axisFormatOf(figure) },
    categoryAxis: { title: "Period ending", numberFormat: DATE_FORMAT },
    series,
  };
}

const COVERAGE_FIELDS = new Set(["covers_from", "covers_to", "months_covered"]);
const BOUND = /_(downside|upside)$/;

/** A forecast: its base line, with its downside and upside (where the block has them) dashed around it. */
function planForecast(block: Block, columns: BlockColumn[], options: ChartOptions): ChartPlan | ChartProblem {
  const date = columns.find((column) => column.field === "date");
  if (!date) return { problem: "This forecast block has no date column to chart against." };
  const figures = columns.filter(
    (column) => column !== date && !COVERAGE_FIELDS.has(column.field) && !BOUND.test(column.field),
  );
  const base = pickFigure(figures, options, "forecast field");
  if (isProblem(base)) return base;
  if (block.values.length < 2) return { problem: "This forecast block has no rows yet." };
  const last = block.values.length - 1;
  const bound = (side: "downside" | "upside") =>
    columns.find((column) => column.field === `${base.field}_${side}` && column.asRent === base.asRent);
  const line = (column: BlockColumn, dashed: boolean): SeriesPlan => ({
    name: column.asRent ? column.header : axisTitleOf(column),
    values: cells(block, column.index, 1, last),
    xValues: cells(block, date.index, 1, last),
    dashed,
  });
  const downside = bound("downside");
  const upside = bound("upside");
  const title = axisTitleOf(base);
  // The title names the lines drawn: a block may carry one bound without the other.
  const drawn = ["base", ...(downside ? ["downside"] : []), ...(upside ? ["upside"] : [])];
  const lines = drawn.length === 1 ? "" : `: ${drawn.slice(0, -1).join(", ")} and ${drawn.at(-1) as string}`;
  return {
    type: "Line",
    title: withAsOf(`${title} forecast${lines}`, options),
    valueAxis: { title, numberFormat: axisFormatOf(base) },
    categoryAxis: { title: "Period starting", numberFormat: DATE_FORMAT },
    series: [
      ...(downside ? [line(downside, true)] : []),
      line(base, false),
      ...(upside ? [line(upside, true)] : []),
    ],
  };
}

/** The metric a market comparison's bars show: the one asked for, or the block's first. */
export function comparisonFigure(
  columns: readonly BlockColumn[],
  options: Pick<ChartOptions, "field">,
): BlockColumn | ChartProblem {
  return pickFigure(
    columns.filter((column) => !IDENTITY_FIELDS.has(column.field)),
    options,
    "metric",
  );
}

/** Markets side by side: one bar per market in the block's order (its sort), the first at the top. */
function planComparison(
  block: Block,
  columns: BlockColumn[],
  options: ChartOptions,
): ChartPlan | ChartProblem {
  const name = columns.find((column) => column.field === "name") ?? columns.find((c) => c.field === "id");
  if (!name) return { problem: "This market block has no name column to label its bars." };
  const figure = comparisonFigure(columns, options);
  if (isProblem(figure)) return figure;
  if (block.values.length < 2) return { problem: "This market block has no markets yet." };
  const last = block.values.length - 1;
  return {
    type: "BarClustered",
    title: withAsOf(`${axisTitleOf(figure)} by market`, options),
    valueAxis: { title: axisTitleOf(figure), numberFormat: axisFormatOf(figure) },
    // A bar chart draws its first category at the bottom; reversed, the bars read top-down as the block does.
    categoryAxis: { title: "Market", reversed: true },
    series: [
      {
        name: axisTitleOf(figure),
        values: cells(block, figure.index, 1, last),
        xValues: cells(block, name.index, 1, last),
      },
    ],
  };
}

const RENT_FIGURES = ["min_rent", "avg_rent", "net_effective_rent", "all_in_rent", "all_in_ner"];
const SIZE_FIGURES = ["sq_ft", "avg_sq_ft"];

/**
 * A comp set's units or survey: rent against size, the subject property's rows a series of their own. A series is
 * one range of cells, so each run of rows of the subject (or of the comps) is a series; the survey's closing
 * "Comp average" row is one too.
 */
function planRentBySize(
  block: Block,
  columns: BlockColumn[],
  options: ChartOptions,
): ChartPlan | ChartProblem {
  const size = columns.find((column) => SIZE_FIGURES.includes(column.field));
  if (!size) return { problem: "This block has no size column (sq_ft or avg_sq_ft) to chart rent against." };
  const rents = options.field
    ? columns.filter((column) => column !== size)
    : RENT_FIGURES.flatMap((field) => columns.filter((column) => column.field === field));
  const rent = pickFigure(rents, options, "rent column");
  if (isProblem(rent)) return rent;
  const subject = columns.find((column) => column.field === "subject_property");
  const name = columns.find((column) => column.field === "property_name");
  const groupOf = (row: readonly unknown[]): string => {
    if (name && String(row[name.index]) === "Comp average") return "Comp average";
    if (subject && row[subject.index] === true)
      return name ? `Subject: ${String(row[name.index] ?? "")}` : "Subject property";
    return "Comps";
  };
  const series: SeriesPlan[] = [];
  let start = 1;
  for (let r = 1; r < block.values.length; r++) {
    const group = groupOf(block.values[r] ?? []);
    const next = block.values[r + 1];
    if (next !== undefined && groupOf(next) === group) continue;
    series.push({
      name: group,
      values: cells(block, rent.index, start, r),
      xValues: cells(block, size.index, start, r),
    });
    start = r + 1;
  }
  if (series.length === 0) return { problem: "This block has no rows yet." };
  return {
    type: "XYScatter",
    title: withAsOf(`${axisTitleOf(rent)} by size`, options),
    valueAxis: { title: axisTitleOf(rent), numberFormat: axisFormatOf(rent) },
    categoryAxis: { title: axisTitleOf(size), numberFormat: "#,##0" },
    series,
  };
}

const PLANNERS: Readonly<
  Record<ChartKind, (block: Block, columns: BlockColumn[], options: ChartOptions) => ChartPlan | ChartProblem>
> = {
  history: (block, columns, options) =>
    options.wideHistory
      ? planWideHistory(block, options.wideHistory, options)
      : planHistory(block, columns, options),
  forecast: planForecast,
  comparison: planComparison,
  rentBySize: planRentBySize,
};

/**
 * The chart of a block: which cells each series reads, its titles and its axes. A block that shows no table
 * (an error, one value) or lacks what the kind needs gets the reason instead, never another chart.
 */
export function planChart(
  block: Block,
  kind: ChartKind,
  options: ChartOptions = {},
): ChartPlan | ChartProblem {
  const header = block.values[0];
  if (!header || block.rect.columnCount < 2)
    return { problem: "The block shows no table: it has no spilled rows to chart." };
  return PLANNERS[kind](block, blockColumns(header), options);
}

export { isProblem as isChartProblem };
