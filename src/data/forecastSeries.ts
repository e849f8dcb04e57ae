import { bodyDefaults } from "../api/requestFacts";
import { ApiError } from "../api/errors";
import {
  BOUNDARY_FORECAST,
  PROPERTY_FORECAST,
  type ForecastAggregation,
  type ForecastInterval,
  type ForecastPoints,
} from "./batchedEndpoints";
import type { DataLayer } from "./dataLayer";
import type { AccountCallOptions, AnswerSource, Fetched } from "./fetched";
import { validateForecastFields } from "./forecastFields";

/** Whose forecast: a property's or a boundary's (each has its own fields and its own row). */
export type ForecastTarget = { kind: "property"; id: number } | { kind: "geo_boundary"; id: number };

export interface ForecastQuery {
  aggregations: ForecastAggregation[];
  interval?: ForecastInterval;
  offset?: string;
  /** ISO dates; the service clamps them to its window (current month + 5 years). */
  start?: string;
  end?: string;
  useRentValue?: boolean;
  useSubmarketFallback?: boolean;
}

/** A forecast: one row per bucket with a value per requested aggregation name. */
export type ForecastSeries = { date: string; values: Record<string, number | null> }[];

const ROWS = { property: PROPERTY_FORECAST, geo_boundary: BOUNDARY_FORECAST } as const;

const SOURCE_RANK: Record<AnswerSource, number> = { cache: 0, network: 1, stale: 2, kept: 3 };

/** The answer of a call assembled from parts: kept or stale if any part was (with why), else network if any part was. */
function combineSources(parts: Fetched<unknown>[]): {
  source: AnswerSource;
  storedAt: number;
  reason?: string;
} {
  let source: AnswerSource = "cache";
  let storedAt = Number.POSITIVE_INFINITY;
  let reason: string | undefined;
  for (const part of parts) {
    if (SOURCE_RANK[part.source] > SOURCE_RANK[source]) ({ source, reason } = part);
    storedAt = Math.min(storedAt, part.storedAt);
  }
  return reason === undefined ? { source, storedAt } : { source, storedAt, reason };
}

/**
 * A forecast of a property or a boundary. Requests for the same target and options merge their aggregations
 * into one call (the target's batched row); the answer's values are keyed by each aggregation's name
 * (default: field). Any aggregation's failure is the forecast's.
 */
export async function readForecast(
  data: Pick<DataLayer, "readMany">,
  target: ForecastTarget,
  query: ForecastQuery,
  options: AccountCallOptions,
): Promise<Fetched<ForecastSeries>> {
  if (query.aggregations.length === 0)
    throw new ApiError("invalid_input", "Ask for at least one forecast field.");
  validateForecastFields(target, query.aggregations);
  // Filled in from the contract's defaults, so a query that leaves them out shares its key with one naming them.
  const defaults = bodyDefaults(
    target.kind === "property" ? "getPropertyForecasts" : "getGeoBoundaryForecasts",
  );
  const params = {
    id: target.id,
    interval: query.interval ?? defaults.interval,
    offset: query.offset ?? defaults.offset,
    start: query.start,
    end: query.end,
    useRentValue: query.useRentValue ?? defaults.use_rent_value,
    useSubmarketFallback: query.useSubmarketFallback ?? defaults.use_submarket_fallback,
  };
  const { records } = await data.readMany(ROWS[target.kind], params, query.aggregations, options);
  const parts = query.aggregations.map((aggregation) => {
    const part = records.get(aggregation) as Fetched<ForecastPoints> | ApiError;
    if (part instanceof ApiError) throw part;
    return part;
  });
  const rows: ForecastSeries = [];
  query.aggregations.forEach((aggregation, index) => {
    (parts[index] as (typeof parts)[number]).value.forEach((point, row) => {
      const entry = (rows[row] ??= { date: point.date, values: {} });
      entry.values[aggregation.name ?? aggregation.field] = point.value;
    });
  });
  return { value: rows, ...combineSources(parts) };
}
