/**
 * The charts of the host's workbook: what an Excel chart holds that the add-in sets through Office.js (its
 * type, name, titles, axes, legend, where it sits, and its series as references to cells). A series holds
 * references, not numbers, as in Excel: the grid's renderer reads the cells each time it draws, so a chart shows
 * new values in its cells at once, and covers more or fewer cells only when its series are pointed again.
 */
import type { CellRect } from "../../../src/excel/a1";

/** Cells a series reads: a single row or column of one sheet. */
export interface CellReference {
  readonly sheet: string;
  readonly rect: CellRect;
}

export interface ChartSeriesRecord {
  name: string;
  values?: CellReference;
  xValues?: CellReference;
  /** Excel.ChartLineStyle of the series' line ("Continuous" unless set). */
  lineStyle: string;
}

export interface ChartAxisRecord {
  title: string;
  numberFormat: string;
  reversePlotOrder: boolean;
}

export interface ChartRecord {
  /** Excel's id for the chart: unique and unchanging, where the name is the person's (and may repeat). */
  readonly id: string;
  name: string;
  /** The Excel.ChartType the chart was added as, or last set to (Chart.chartType). */
  type: string;
  title: string;
  valueAxis: ChartAxisRecord;
  categoryAxis: ChartAxisRecord;
  legend: { visible: boolean; position: string };
  /** The cells it covers, from its top-left cell to its bottom-right cell. */
  position: CellRect;
  series: ChartSeriesRecord[];
}

/**
 * The chart types the host's renderer draws (a few of Excel.ChartType's): lines, scatter, bars. Adding a
 * chart of another type fails the sync with a message saying so, rather than drawing something else.
 */
export const DRAWN_CHART_TYPES: ReadonlySet<string> = new Set([
  "Line",
  "LineMarkers",
  "XYScatter",
  "XYScatterLines",
  "XYScatterLinesNoMarkers",
  "BarClustered",
  "ColumnClustered",
]);

/** Excel.ChartLineStyle's values. */
export const CHART_LINE_STYLES: ReadonlySet<string> = new Set([
  "None",
  "Continuous",
  "Dash",
  "DashDot",
  "DashDotDot",
  "Dot",
  "Grey25",
  "Grey50",
  "Grey75",
  "Automatic",
  "RoundDot",
]);

export const CHART_LEGEND_POSITIONS: ReadonlySet<string> = new Set([
  "Invalid",
  "Top",
  "Bottom",
  "Left",
  "Right",
  "Corner",
  "Custom",
]);

export function newAxis(): ChartAxisRecord {
  return { title: "", numberFormat: "General", reversePlotOrder: false };
}
