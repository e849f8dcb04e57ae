import { rentFunctionsIn } from "../rentFormulas";

/**
 * The charts the pane draws from a RENT block, by what the block holds:
 * - `history`: a figure over time (RENT.HISTORY, RENT.FLOORPLANHISTORY), one line per property or floor plan;
 * - `forecast`: a forecast (RENT.FORECAST, RENT.GEOFORECAST), the base line with its downside and upside;
 * - `comparison`: markets side by side (RENT.MARKETS), one bar per market;
 * - `rentBySize`: a comp set's units or survey (RENT.UNITS, RENT.SURVEY), rent against size, the subject marked.
 */
export const CHART_KINDS = ["history", "forecast", "comparison", "rentBySize"] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

const KIND_OF_FUNCTION: Readonly<Record<string, ChartKind>> = {
  HISTORY: "history",
  FLOORPLANHISTORY: "history",
  FORECAST: "forecast",
  GEOFORECAST: "forecast",
  MARKETS: "comparison",
  UNITS: "rentBySize",
  SURVEY: "rentBySize",
};

/** The functions each kind charts, for the pane to name when a block is none of them. */
export const CHARTED_FUNCTIONS = Object.keys(KIND_OF_FUNCTION).map((name) => `RENT.${name}`);

/**
 * The kind of chart a block's formula makes, from the RENT function it calls first; undefined when it calls
 * none that spills a table a chart can show.
 */
export function chartKindOf(formula: string): ChartKind | undefined {
  const first = rentFunctionsIn(formula)[0];
  return first === undefined ? undefined : KIND_OF_FUNCTION[first];
}
