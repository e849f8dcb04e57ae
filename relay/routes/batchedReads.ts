import { randomUUID } from "node:crypto";
import { ApiError } from "../../src/api/errors";
import type { DataLayer, ForecastAggregation, ForecastQuery, ForecastTarget } from "../../src/data/dataLayer";
import {
  exploreMarketsBody,
  MARKET_METRICS,
  PROPERTY_DETAILS,
  type MarketOptions,
} from "../../src/data/batchedEndpoints";
import { readForecast } from "../../src/data/forecastSeries";
import { canonicalJson } from "../../src/data/cacheKey";
import type { Fetched } from "../../src/data/fetched";
import { currentUser } from "../requestContext";
import { MAX_FORECAST_AGGREGATIONS } from "../../src/api/contractLimits";
import { operationById } from "../../src/api/operations";
import { isOneOf } from "../../src/api/enumValues";
import { forecastIntervalValues, marketGeoTypeValues } from "../../src/api/schema";
import type { RelayStats } from "../status/relayStats";
import { isObject } from "./accountAccess";
import { currentClientSignal } from "../upstream/clientSignal";
import {
  interestsOf,
  wantedBulkDetails,
  wantedForecast,
  wantedMarkets,
  type Wanted,
} from "../upstream/interests";

/**
 * Bulk details, market metrics and forecasts of everyone go through the add-in's own batched rows, one level up:
 * what several people ask within the batch window leaves as one call, and each property, boundary and
 * forecast series is cached on its own, so a colleague's differently split batch is still answered locally.
 * A request of a shape those rows do not make is not "batchable" and is forwarded as it is.
 *
 * Each read waits with its client's signal (a batch goes on while anyone still waits for it) and is known to
 * wait for its items, so the call that carries them goes out on this person's turn, whoever opened the batch.
 */

/** Runs a batched read of the current person's, known to wait for `wanted`, with their client's signal. */
function asPerson<T>(data: DataLayer, wanted: Wanted, read: (signal: AbortSignal | undefined) => Promise<T>) {
  return interestsOf(data).during(currentUser(), wanted, () => read(currentClientSignal()));
}

type Json = Record<string, unknown>;

/** The answer of a batched read: a body in the contract's shape, or the error to send instead. */
export type BatchedAnswer = { body: unknown } | { error: ApiError };

/** The top-level properties the contract gives an operation's body. */
const bodyProperties = (operationId: "getPropertyForecasts") =>
  operationById(operationId).body?.properties ?? [];
const onlyKeys = (value: Json, allowed: readonly string[]) =>
  Object.keys(value).every((key) => allowed.includes(key));
const positiveIds = (values: unknown[]): values is number[] =>
  values.length > 0 && values.every((value) => Number.isSafeInteger(value) && (value as number) > 0);

/** Each failure that is not "not found" is the answer of the whole request, as one service call would give. */
function firstFailure<T>(values: Iterable<Fetched<T> | ApiError>): ApiError | undefined {
  for (const value of values) if (value instanceof ApiError && value.kind !== "not_found") return value;
  return undefined;
}

async function countLookups(stats: RelayStats, values: Iterable<Fetched<unknown> | ApiError>): Promise<void> {
  let hits = 0;
  let misses = 0;
  for (const value of values) {
    if (value instanceof ApiError) continue;
    if (value.source === "network") misses += 1;
    else hits += 1;
  }
  await stats.cacheLookups(hits, misses);
}

export async function bulkDetails(
  data: DataLayer,
  stats: RelayStats,
  accountId: number,
  ids: number[],
): Promise<BatchedAnswer> {
  const { records, quotaAdded } = await asPerson(data, wantedBulkDetails(accountId, ids), (signal) =>
    data.readMany(PROPERTY_DETAILS, {}, ids, { accountId, signal }),
  );
  await Promise.all([stats.quotaUsed(accountId, quotaAdded), countLookups(stats, records.values())]);
  const failure = firstFailure(records.values());
  if (failure) return { error: failure };
  const found = [...records].flatMap(([id, record]) =>
    record instanceof ApiError ? [] : [{ id: String(id), type: "properties", attributes: record.value }],
  );
  return { body: { data: found } };
}

/**
 * The boundaries and options of an explore markets body that is exactly what the add-in's batched row sends for
 * them (`exploreMarketsBody`), so that several people's calls can be merged again; any other body is not.
 */
export function batchableMarkets(
  accountId: number,
  body: Json,
): { ids: number[]; options: MarketOptions } | undefined {
  const filters = body.market_filters;
  if (!isObject(filters)) return undefined;
  const ids = filters.geo_boundary_ids;
  if (!Array.isArray(ids) || !positiveIds(ids) || new Set(ids).size !== ids.length) return undefined;
  const { geo_type: geoType } = filters;
  const propertyFilters = body.property_filters;
  if (geoType !== undefined && !isOneOf(marketGeoTypeValues, geoType)) return undefined;
  if (propertyFilters !== undefined && !isObject(propertyFilters)) return undefined;
  const options = {
    geoType,
    propertyFilters: propertyFilters as MarketOptions["propertyFilters"],
  };
  const batched = exploreMarketsBody(accountId, options, ids);
  return canonicalJson(batched) === canonicalJson(body) ? { ids, options } : undefined;
}

export async function marketMetrics(
  data: DataLayer,
  stats: RelayStats,
  accountId: number,
  query: { ids: number[]; options: MarketOptions },
): Promise<BatchedAnswer> {
  const { records: markets } = await asPerson(data, wantedMarkets(accountId, query.ids), (signal) =>
    data.readMany(MARKET_METRICS, query.options, query.ids, { accountId, signal }),
  );
  await countLookups(stats, markets.values());
  const failure = firstFailure(markets.values());
  if (failure) return { error: failure };
  const ranked = [...markets.values()]
    .flatMap((market) => (market instanceof ApiError ? [] : [market.value]))
    .sort((a, b) => b.property_count_total - a.property_count_total);
  return {
    body: {
      data: ranked.map((attributes) => ({ id: String(attributes.id), type: "compare_market", attributes })),
    },
  };
}

/** A forecast body every field of which the forecast rows can carry; its aggregations keep their names. */
export function batchableForecast(body: Json): ForecastQuery | undefined {
  if (!onlyKeys(body, bodyProperties("getPropertyForecasts"))) return undefined;
  const { aggregations, interval, offset, use_rent_value, use_submarket_fallback, filters } = body;
  if (
    !Array.isArray(aggregations) ||
    aggregations.length === 0 ||
    aggregations.length > MAX_FORECAST_AGGREGATIONS
  )
    return undefined;
  const named: ForecastAggregation[] = [];
  for (const aggregation of aggregations) {
    if (!isObject(aggregation) || !onlyKeys(aggregation, ["name", "field", "aggregation_type"]))
      return undefined;
    const { name, field, aggregation_type } = aggregation;
    if (typeof field !== "string" || typeof aggregation_type !== "string") return undefined;
    if (name !== undefined && typeof name !== "string") return undefined;
    named.push({ name: name ?? field, field, aggregation_type } as ForecastAggregation);
  }
  if (new Set(named.map((aggregation) => aggregation.name)).size !== named.length) return undefined;
  if (interval !== undefined && !isOneOf(forecastIntervalValues, interval)) return undefined;
  if (offset !== undefined && (typeof offset !== "string" || !/^[+-]?[0-9]{1,3}d$/.test(offset)))
    return undefined;
  for (const flag of [use_rent_value, use_submarket_fallback])
    if (flag !== undefined && typeof flag !== "boolean") return undefined;
  let start: string | undefined;
  let end: string | undefined;
  if (filters !== undefined) {
    if (!isObject(filters) || !onlyKeys(filters, ["collected_at_gte", "collected_at_lte"])) return undefined;
    const dates = [filters.collected_at_gte, filters.collected_at_lte];
    if (
      dates.some(
        (date) => date !== undefined && (typeof date !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(date)),
      )
    )
      return undefined;
    [start, end] = dates as (string | undefined)[];
  }
  return {
    aggregations: named,
    interval: interval as ForecastQuery["interval"],
    offset: offset as string | undefined,
    start,
    end,
    useRentValue: use_rent_value as boolean | undefined,
    useSubmarketFallback: use_submarket_fallback as boolean | undefined,
  };
}

export async function forecast(
  data: DataLayer,
  stats: RelayStats,
  accountId: number,
  target: ForecastTarget,
  query: ForecastQuery,
): Promise<BatchedAnswer> {
  try {
    const answer = await asPerson(data, wantedForecast(accountId, target.kind, target.id), (signal) =>
      readForecast(data, target, query, { accountId, signal }),
    );
    await countLookups(stats, [answer]);
    return {
      body: { data: { id: randomUUID(), type: "forecasts", attributes: { time_series: answer.value } } },
    };
  } catch (error) {
    return { error: error instanceof ApiError ? error : new ApiError("server", "The forecast failed.") };
  }
}
