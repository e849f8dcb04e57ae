import { FORECAST_WINDOW_MONTHS } from "../../api/contractLimits";
import { bodyDefaults } from "../../api/requestFacts";
import { forecastIntervalValues } from "../../api/schema";
import { readDate } from "../../functions/args/excelDates";
import {
  FORWARD_PERIOD_MONTHS,
  FORWARD_PERIODS,
  INTERVAL_MONTHS,
} from "../../functions/args/forecastPeriods";
import {
  MARKETS_DEFAULTS,
  MARKETS_LIMIT,
  type MarketsRankingOption,
} from "../../functions/args/marketsOptions";
import { ArgumentError } from "../../functions/cellErrors";
import { PaneInputError } from "../paneInputError";

/** What the formula builder can insert: each kind is one RENT function. */
export type InsertKind =
  "market" | "markets" | "property" | "propertyForecast" | "forecast" | "compSet" | "narrative";

/**
 * What a formula is about: one boundary, property or comp set by id, or the cells of a selected range
 * holding property ids or markets (names or ids); then one block formula refers to them.
 */
export type Subject = { id: number } | { cells: string };

/**
 * The forecast functions' options the builder sets: an interval (a calendar bucket or a forward period; empty
 * for the function's default), forecast rent in dollars instead of growth, and the window's dates (ISO text).
 */
export interface ForecastChoice {
  interval: string;
  useRentValue: boolean;
  start: string;
  end: string;
}

/** RENT.MARKETS' ranking options; an empty one is left to the function's default. */
export type MarketsChoice = Readonly<Partial<Record<MarketsRankingOption, string>>>;

export interface FormulaOptions {
  forecast?: ForecastChoice;
  markets?: MarketsChoice;
}

/** The intervals a forecast takes, the service's calendar buckets then the forward periods. */
export const FORECAST_INTERVALS: readonly string[] = [...forecastIntervalValues, ...FORWARD_PERIODS];

/** The interval a property forecast uses when none is given (the contract's default). */
export const DEFAULT_FORECAST_INTERVAL = bodyDefaults("getPropertyForecasts").interval;

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

function argument(subject: Subject): string {
  return "id" in subject ? String(subject.id) : subject.cells;
}

function onlyOne(fields: readonly string[], what: string): string {
  if (fields.length !== 1) throw new PaneInputError(`Pick one ${what}: each fills a table of its own.`);
  return fields[0] as string;
}

/** The kinds whose function takes a range of what they are about (one row per cell, one column per field). */
export const BLOCK_KINDS: ReadonlySet<InsertKind> = new Set(["market", "property"]);

/** The kinds the builder writes for a selected column with one formula per cell (the function takes one). */
export const PER_CELL_KINDS: ReadonlySet<InsertKind> = new Set(["propertyForecast"]);

/** A date typed in the pane, checked as the function will read it. */
function checkedDate(text: string, what: string): string {
  try {
    return readDate(text, what);
  } catch (error) {
    if (error instanceof ArgumentError) throw new PaneInputError(error.message);
    throw error;
  }
}

/**
 * The forecast functions' arguments after the fields (aggregation, interval, start, end, use_rent_value), with
 * the ones not set left empty and the empty ones at the end left out, so the formula reads as short as it can.
 */
function forecastOptions(choice: ForecastChoice | undefined): string[] {
  if (!choice) return [];
  const start = choice.start.trim();
  const end = choice.end.trim();
  if (choice.interval in FORWARD_PERIOD_MONTHS && (start || end)) {
    throw new PaneInputError(
      `${choice.interval} runs from this month and takes no start or end date: clear the dates, or pick ${forecastIntervalValues.join(", ")}.`,
    );
  }
  const args = [
    "",
    choice.interval ? quoted(choice.interval) : "",
    start ? quoted(checkedDate(start, "Start")) : "",
    end ? quoted(checkedDate(end, "End")) : "",
    choice.useRentValue ? "TRUE" : "",
  ];
  while (args.at(-1) === "") args.pop();
  return args;
}

/** RENT.MARKETS' options text for the ranking chosen, e.g. "sort=rent_avg_t30; direction=desc; limit=10". */
function marketsOptions(choice: MarketsChoice | undefined): string {
  const set = Object.entries(choice ?? {}).flatMap(([name, value]) =>
    value !== undefined && value.trim() !== "" ? [[name, value.trim()] as const] : [],
  );
  const limit = Number(choice?.limit?.trim() || MARKETS_DEFAULTS.limit);
  if (!Number.isInteger(limit) || limit < MARKETS_LIMIT.minimum || limit > MARKETS_LIMIT.maximum) {
    throw new PaneInputError(
      `Markets shown: a whole number from ${MARKETS_LIMIT.minimum} to ${MARKETS_LIMIT.maximum} (${MARKETS_DEFAULTS.limit} when empty).`,
    );
  }
  return set.map(([name, value]) => `${name}=${value}`).join("; ");
}

/**
 * RENT.MARKETS' arguments for a choice: the metrics, the ranking as options text, and readable column names (the
 * header row is for reading; the ranked rows are not looked up by id). The formula and the preview both use them.
 */
export function marketsArguments(fields: readonly string[], choice: MarketsChoice | undefined) {
  return { metrics: fields.join(","), options: marketsOptions(choice), headers: "names" as const };
}

const call = (name: string, args: readonly string[]) => `=RENT.${name}(${args.join(", ")})`;

/**
 * The formulas for a choice, as a row from the cell where they go: for one market, one RENT.MARKET per metric
 * (each cell stands alone when a metric is typed over); for a range of markets, one block; otherwise a single
 * formula (RENT.PROPERTY, RENT.FORECAST and RENT.GEOFORECAST take several fields at once).
 */
export function formulasFor(
  kind: InsertKind,
  subject: Subject | undefined,
  fields: readonly string[],
  options: FormulaOptions = {},
): string[] {
  if (fields.length === 0) throw new PaneInputError("Pick at least one field from the list.");
  if (kind === "markets") {
    const args = marketsArguments(fields, options.markets);
    return [
      call("MARKETS", [quoted(args.metrics), args.options ? quoted(args.options) : "", quoted(args.headers)]),
    ];
  }
  if (!subject) throw new PaneInputError("Find and choose what the formula is about first.");
  if ("cells" in subject && !BLOCK_KINDS.has(kind) && !PER_CELL_KINDS.has(kind)) {
    throw new PaneInputError(
      "A range of cells can be used for property ids or markets only: select one cell instead.",
    );
  }
  const target = argument(subject);
  const list = quoted(fields.join(","));
  switch (kind) {
    case "market":
      if ("cells" in subject) return [call("MARKET", [target, list])];
      return fields.map((metric) => call("MARKET", [target, quoted(metric)]));
    case "property":
      return [call("PROPERTY", [target, list])];
    case "propertyForecast":
      return [call("FORECAST", [target, list, ...forecastOptions(options.forecast)])];
    case "forecast":
      return [call("GEOFORECAST", [target, list, ...forecastOptions(options.forecast)])];
    case "compSet":
      return [`=RENT.${onlyOne(fields, "comp set table")}(${target})`];
    case "narrative":
      return [call("NARRATIVE", [target, quoted(onlyOne(fields, "narrative section"))])];
  }
}

/**
 * The most rows and the columns a property forecast's table can spill: its header and one row per bucket its
 * window touches (a window that starts inside a bucket touches one more), a date column, one per field, and the
 * three coverage columns a quarter, a year or a forward period adds. The builder leaves that much room per
 * property, so no table spills into the next.
 */
export function forecastTableSize(interval: string, fieldCount: number): { rows: number; columns: number } {
  const chosen = interval || DEFAULT_FORECAST_INTERVAL;
  const forward = chosen in FORWARD_PERIOD_MONTHS;
  const months = forward ? 0 : (INTERVAL_MONTHS[chosen as keyof typeof INTERVAL_MONTHS] ?? 1);
  const rows = forward ? 1 : Math.ceil(FORECAST_WINDOW_MONTHS / months) + (months > 1 ? 1 : 0);
  return { rows: 1 + rows, columns: 1 + fieldCount + (months === 1 ? 0 : 3) };
}
