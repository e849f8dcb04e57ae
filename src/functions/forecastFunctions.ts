import { ApiError } from "../api/errors";
import { catalogueFields, factsIn } from "../api/fieldFacts";
import { asFraction } from "../api/readers/percentScale";
import { bodyDefaults } from "../api/requestFacts";
import { aggregationTypeValues, forecastGeoTypeValues } from "../api/schema";
import type { ForecastAggregation, ForecastQuery, ForecastTarget } from "../data/dataLayer";
import { readForecast, type ForecastSeries } from "../data/forecastSeries";
import { isoDateToSerial } from "../tables/excelDates";
import { readDate } from "./args/excelDates";
import { defaultAggregation } from "./args/forecastAggregation";
import {
  INTERVAL_MONTHS,
  forwardAggregation,
  readForecastPeriod,
  refuseDatesWithForwardPeriod,
  type ForecastPeriod,
} from "./args/forecastPeriods";
import { isBlank, readChoice, readList, readOptionalBoolean, readText } from "./args/scalars";
import { headerOf, readHeaders, type Headers } from "./args/headers";
import { firstArgumentOf, resolveBoundary, resolveProperty } from "./args/nameResolver";
import { readFieldName } from "./args/fieldVocabulary";
import { runCell, type CellSignal } from "./cellCall";
import { cellContext } from "./cellContext";
import { fieldCell, resultCell, type ResultCell } from "./shape/dataTypes";
import {
  answeredMonths,
  bucketCoverage,
  coverageCells,
  coverageHeaders,
  forwardPeriodRow,
  type Coverage,
} from "./shape/forecastCoverage";
import { outputValue } from "./shape/values";

interface ForecastArguments {
  fields: unknown;
  aggregation: unknown;
  interval: unknown;
  start: unknown;
  end: unknown;
  useRentValue: unknown;
  useSubmarketFallback?: unknown;
  headers?: unknown;
}

const catalogueOf = (target: ForecastTarget) =>
  target.kind === "property" ? ("propertyForecast" as const) : ("boundaryForecast" as const);

/** Property and boundary forecasts name the same ideas differently (api-spec.md): either name is taken for both. */
const SAME_IDEA: Readonly<Record<ForecastTarget["kind"], Readonly<Record<string, string>>>> = {
  property: { rent_growth_yoy: "rent_growth_rate_yoy", occupancy: "occupancy_percent" },
  geo_boundary: { rent_growth_rate_yoy: "rent_growth_yoy", occupancy_percent: "occupancy" },
};

/** The target's own name of a field given by either name; a field the target does not have is refused with a hint. */
function targetField(target: ForecastTarget, given: string): string {
  const [, base = given, bound = ""] = /^(.*?)(_downside|_upside)?$/.exec(given) ?? [];
  const field = (SAME_IDEA[target.kind][base] ?? base) + bound;
  const known = Object.keys(catalogueFields(catalogueOf(target)));
  if (known.includes(field)) return field;
  const what = target.kind === "property" ? "a property" : "a boundary";
  // The one vocabulary: a word the contract gives a forecast field names it; else "Did you mean" over them all.
  return readFieldName(given, known, `field: "${given}" is not a forecast field of ${what}`);
}

/**
 * Reads the arguments both forecast functions share into the data layer's query. Without an aggregation, a
 * bucket of several months averages levels (rent growth, occupancy) and adds up flows (deliveries, absorption:
 * the contract's `x-aggregate`), so a quarter's deliveries are the quarter's, not a monthly average. A forward
 * period asks for the monthly forecast with the same aggregations, which it then combines over its months.
 */
function readForecastQuery(
  target: ForecastTarget,
  args: ForecastArguments,
): { fields: string[]; query: ForecastQuery; period: ForecastPeriod } {
  const fields = [...new Set(readList(args.fields, "field", readText))];
  if (fields.length === 0) throw new ApiError("invalid_input", "field: name at least one forecast field.");
  const period: ForecastPeriod = isBlank(args.interval)
    ? {
        kind: "bucket",
        interval: bodyDefaults(
          target.kind === "property" ? "getPropertyForecasts" : "getGeoBoundaryForecasts",
        ).interval,
      }
    : readForecastPeriod(args.interval);
  const named = isBlank(args.aggregation)
    ? undefined
    : readChoice(args.aggregation, "aggregation", aggregationTypeValues);
  const aggregations: ForecastAggregation[] = fields.map((name) => {
    const field = targetField(target, name);
    const aggregation = named ?? defaultAggregation(catalogueOf(target), field);
    return {
      name,
      field: field as ForecastAggregation["field"],
      aggregation_type:
        period.kind === "forward" ? forwardAggregation(aggregation, period.name) : aggregation,
    };
  });
  const start = isBlank(args.start) ? undefined : readDate(args.start, "start");
  const end = isBlank(args.end) ? undefined : readDate(args.end, "end");
  if (period.kind === "forward") refuseDatesWithForwardPeriod(period.name, start, end);
  return {
    fields,
    period,
    query: {
      aggregations,
      interval: period.kind === "forward" ? "month" : period.interval,
      start,
      end,
      useRentValue: readOptionalBoolean(args.useRentValue, "use_rent_value"),
      useSubmarketFallback: readOptionalBoolean(args.useSubmarketFallback, "use_submarket_fallback"),
    },
  };
}

/**
 * The rows to show and what each covers: a forward period's one row made from the monthly rows; a quarter's or a
 * year's rows with the months the window leaves them; a month's rows as they are (a month is a whole point).
 */
function periodRows(
  series: ForecastSeries,
  storedAt: number,
  { query, period }: { query: ForecastQuery; period: ForecastPeriod },
): { rows: ForecastSeries; coverage?: Coverage[] } {
  if (period.kind === "forward") {
    const made = forwardPeriodRow(
      series,
      period.months,
      query.aggregations.map((entry) => ({
        name: entry.name ?? entry.field,
        way: forwardAggregation(entry.aggregation_type, period.name),
      })),
    );
    return { rows: [made.row], coverage: [made.coverage] };
  }
  const of = INTERVAL_MONTHS[period.interval];
  if (of === 1) return { rows: series };
  const answered = answeredMonths(storedAt, query.start, query.end);
  return { rows: series, coverage: series.map((row) => bucketCoverage(row.date, of, answered)) };
}

/**
 * Runs a forecast and spills [date, field...], then what each row covers when it is a quarter, a year or a forward
 * period: dates as Excel serials (bucket starts), nulls as empty cells.
 */
async function forecastTable(
  target: ForecastTarget,
  args: ForecastArguments,
  cellSignal: CellSignal,
): Promise<unknown[][]> {
  const asked = readForecastQuery(target, args);
  const { fields, query } = asked;
  const { data, call } = cellContext(cellSignal);
  const answer = await readForecast(data, target, query, call);
  const series = answer.value;
  const what = target.kind === "property" ? `property ${target.id}` : `boundary ${target.id}`;
  const hint =
    target.kind === "geo_boundary"
      ? " Boundary forecasts exist for MSAs, submarkets and ZIP codes."
      : query.useSubmarketFallback
        ? ""
        : " Try use_submarket_fallback = TRUE.";
  if (series.length === 0 || series.every((row) => fields.every((field) => row.values[field] === null))) {
    throw new ApiError("not_found", `No forecast data for ${what}.${hint}`);
  }
  // With use_rent_value the rent growth fields hold forecast rent in dollars, and their columns say so.
  // Otherwise a percent the service sends in points (occupancy) becomes a fraction, as every percent cell is.
  const fieldOf = new Map(query.aggregations.map((entry) => [entry.name, entry.field as string]));
  const asRent = (name: string) =>
    query.useRentValue === true && /rent_growth/.test(fieldOf.get(name) ?? name);
  const cell = (name: string, value: unknown) => {
    if (asRent(name)) return resultCell(outputValue(value), "currency");
    const field = fieldOf.get(name) ?? name;
    const facts = factsIn(catalogueOf(target), field);
    const sent = facts?.unit === "percent" && facts.sentAs === "points" && typeof value === "number";
    return fieldCell(sent ? asFraction(value, "points") : value, field);
  };
  const headers: Headers = { choice: readHeaders(args.headers), record: catalogueOf(target) };
  const heading = (name: string) => {
    if (headers.choice === "ids") return asRent(name) ? `forecast rent (${name})` : name;
    const label = headerOf(fieldOf.get(name) ?? name, headers);
    return asRent(name) ? label.replace(/^Rent growth( YoY)?/i, "Forecast rent") : label;
  };
  const { rows, coverage } = periodRows(series, answer.storedAt, asked);
  const covered = (index: number): ResultCell[] =>
    coverage ? coverageCells(coverage[index] as Coverage) : [];
  return [
    [
      headerOf("date", { choice: headers.choice }),
      ...fields.map(heading),
      ...(coverage?.[0] ? coverageHeaders(headers.choice, coverage[0].of) : []),
    ],
    ...rows.map((row, index) => [
      resultCell(isoDateToSerial(row.date) ?? row.date, "date"),
      ...fields.map((field) => cell(field, row.values[field])),
      ...covered(index),
    ]),
  ];
}

/**
 * A property's monthly forecast over the next ${limit FORECAST_WINDOW_MONTHS} months (from the first day of this month), bucketed by
 * ${values ForecastInterval} or combined over a forward period, with a date column and one column per field.
 * @customfunction FORECAST
 * @helpurl https://localhost:3000/help.html#rent-forecast
 * @cancelable
 * @requiresAddress
 * @param propertyId The property: its id, its name or street address, optionally with its city and/or state (such as "Austin Oaks, Austin").
 * @param field ${fields propertyForecast} (each also with _downside or _upside), or several as a range or comma-separated text.
 * @param [aggregation] How each bucket combines its months: ${values AggregationType}; when omitted, ${aggregates propertyForecast}. A forward period takes ${own FORWARD_AGGREGATIONS}.
 * @param [interval] ${choices getPropertyForecasts.interval}; or one row for a period forward from now, made from the monthly forecast: ${own FORWARD_PERIODS}. A quarter or year the window cuts short says which months it covers.
 * @param [start] First date (clamped to this month's first day); a forward period takes no start or end.
 * @param [end] Last date (clamped to ${limit FORECAST_WINDOW_MONTHS} months ahead).
 * @param [useRentValue] TRUE: rent growth becomes forecast rent in dollars.
 * @param [useSubmarketFallback] TRUE: when the property has no rent growth forecast, use its submarket's.
 * @param [headers] "ids" (default): columns headed by their field ids, the names formulas take; "names": by readable names such as "${label propertyForecast.rent_growth_rate_yoy}".
 * @param [invocation] Custom function invocation.
 * @returns A header row [date, fields...] and one row per bucket; a quarter, a year or a forward period adds covers_from, covers_to and months_covered.
 */
export async function forecast(
  propertyId: unknown,
  field: unknown[][],
  aggregation?: unknown,
  interval?: unknown,
  start?: unknown,
  end?: unknown,
  useRentValue?: unknown,
  useSubmarketFallback?: unknown,
  headers?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const id = await resolveProperty(
      propertyId,
      cellContext(cellSignal),
      firstArgumentOf("property_id", "RENT.FORECAST"),
    );
    const target: ForecastTarget = { kind: "property", id };
    const args = {
      fields: field,
      aggregation,
      interval,
      start,
      end,
      useRentValue,
      useSubmarketFallback,
      headers,
    };
    return forecastTable(target, args, cellSignal);
  });
}

/**
 * A boundary's forecast (MSA, submarket or ZIP code) over the next ${limit FORECAST_WINDOW_MONTHS} months, like RENT.FORECAST.
 * @customfunction GEOFORECAST
 * @helpurl https://localhost:3000/help.html#rent-geoforecast
 * @cancelable
 * @requiresAddress
 * @param boundaryId The boundary: its id (see RENT.BOUNDARY) or its exact name such as "Austin" (a metro by its whole name or principal city).
 * @param field ${fields boundaryForecast} (each also with _downside or _upside), or several as a range or comma-separated text.
 * @param [aggregation] How each bucket combines its months: ${values AggregationType}; when omitted, ${aggregates boundaryForecast}. A forward period takes ${own FORWARD_AGGREGATIONS}.
 * @param [interval] ${choices getGeoBoundaryForecasts.interval}; or one row for a period forward from now, made from the monthly forecast: ${own FORWARD_PERIODS}. A quarter or year the window cuts short says which months it covers.
 * @param [start] First date (clamped to this month's first day); a forward period takes no start or end.
 * @param [end] Last date (clamped to ${limit FORECAST_WINDOW_MONTHS} months ahead).
 * @param [useRentValue] TRUE: rent growth becomes forecast rent in dollars.
 * @param [headers] "ids" (default): columns headed by their field ids, the names formulas take; "names": by readable names such as "${label boundaryForecast.rent_growth_yoy}".
 * @param [invocation] Custom function invocation.
 * @returns A header row [date, fields...] and one row per bucket; a quarter, a year or a forward period adds covers_from, covers_to and months_covered.
 */
export async function geoForecast(
  boundaryId: unknown,
  field: unknown[][],
  aggregation?: unknown,
  interval?: unknown,
  start?: unknown,
  end?: unknown,
  useRentValue?: unknown,
  headers?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    // A name ("Austin") is resolved among the boundaries that have forecasts: MSAs, submarkets, ZIP codes.
    const { id } = await resolveBoundary(
      boundaryId,
      cellContext(cellSignal),
      firstArgumentOf("boundary_id", "RENT.GEOFORECAST"),
      forecastGeoTypeValues,
    );
    const target: ForecastTarget = { kind: "geo_boundary", id };
    const args = { fields: field, aggregation, interval, start, end, useRentValue, headers };
    return forecastTable(target, args, cellSignal);
  });
}
