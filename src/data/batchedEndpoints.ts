/**
 * The batched rows of the table: reads whose items (properties, boundaries, forecast series) many cells ask
 * for one by one and the service answers many to a call. Each row names its operation (method, path, cache
 * kind per item and quota effect come from src/api/operations.ts), the reader of its answer, the contract's
 * limit of items per call, how a call's request is built from its items and how its answer is split per item.
 * `DataLayer.readMany` runs any of them (src/data/batchedReads.ts); a new one is a row here and a reader.
 */
import { MAX_BULK_DETAILS_IDS, MAX_EXPLORE_MARKETS, MAX_FORECAST_AGGREGATIONS } from "../api/contractLimits";
import { ApiError } from "../api/errors";
import { bodyDefaults } from "../api/requestFacts";
import { operationById, type Operation, type OperationId } from "../api/operations";
import type { AnswerReader } from "../api/readers/answerForm";
import { bulkDetailsReader, exploreMarketsReader, forecastReader } from "../api/readers/serviceReaders";
import type { components } from "../api/schema";
import type { BodyOf, RequestOf } from "./endpoints";

export interface BatchedEndpoint<P, I, V> {
  readonly operation: Operation;
  /** Items per call: the contract's limit; more items go out in more calls. */
  readonly maxPerCall: number;
  /** An item's identity within its call: equal ids are asked once. */
  readonly itemId: (item: I) => string;
  /** What names one item's answer in the cache, beside the row's kind and path, the account and the period. */
  readonly keyParams: (params: P, item: I) => unknown;
  /** What ages an answer by the calendar (a forecast starts at the current month): part of every key. */
  readonly period?: (now: number) => string;
  /** One call for items that share the caller's parameters and account: its answer per item id. */
  readonly fetch: (
    send: SendRead,
    params: P,
    items: readonly I[],
    accountId: number,
  ) => Promise<Map<string, V>>;
  /** The error of an item the answer did not carry. */
  readonly notFound: (params: P, item: I) => ApiError;
}

/** Sends a row's request (through the gate, retried) and reads its answer with `reader`. */
export type SendRead = <T>(reader: AnswerReader<T>, request: object) => Promise<T>;

/** A row: the operation's facts from the table, the request typed by the operation, the answer by its reader. */
function batchedRow<Op extends OperationId, P, I, V, T>(
  operationId: Op,
  parts: Omit<BatchedEndpoint<P, I, V>, "operation" | "fetch"> & {
    reader: AnswerReader<T>;
    request: (params: P, items: readonly I[], accountId: number) => RequestOf<Op>;
    split: (answer: T, items: readonly I[]) => Map<string, V>;
  },
): BatchedEndpoint<P, I, V> {
  const { reader, request, split, ...rest } = parts;
  return {
    operation: operationById(operationId),
    fetch: async (send, params, items, accountId) =>
      split(await send(reader, request(params, items, accountId)), items),
    ...rest,
  };
}

export type PropertyAttributes = components["schemas"]["PropertyAttributes"];

/**
 * Property details by id: bulk details calls of the contract's most ids, each returned property counted toward
 * the account's bulk export quota (the operation says so), which is why an id cached (or primed by a property
 * search) is never asked again.
 */
export const PROPERTY_DETAILS = batchedRow("getBulkPropertyDetails", {
  maxPerCall: MAX_BULK_DETAILS_IDS,
  itemId: (id: number) => String(id),
  keyParams: (_: Record<string, never>, id) => ({ property_id: id }),
  reader: bulkDetailsReader,
  request: (_, ids, accountId) => ({
    params: { query: { account_id: accountId, property_ids: ids.join(",") } },
  }),
  split: (answer) => new Map(answer.data.map((record) => [String(record.id), record.attributes])),
  notFound: (_, id) => new ApiError("not_found", `Property ${id} was not found.`),
});

type ExploreMarketsBody = BodyOf<"exploreMarkets">;
export type MarketAttributes = components["schemas"]["CompareMarketAttributes"];
export type MarketGeoType = MarketAttributes["geo_type"];

/** What must be equal for boundaries to share one /explore_markets call. */
export interface MarketOptions {
  /**
   * The boundaries' type, when the caller knows it. Without it the contract returns named boundaries of
   * either market type (MSA or submarket), so boundaries of both kinds share one call.
   */
  geoType?: MarketGeoType;
  /** Restricts which properties feed the aggregates. */
  propertyFilters?: ExploreMarketsBody["property_filters"];
}

/** The ranking the contract defaults to, named in the body so the relay can recognise a batched call by it. */
const EXPLORE_DEFAULTS = bodyDefaults("exploreMarkets");

/**
 * The body of one batched call: the named boundaries, ranked by property count, all of them. The team relay
 * reads a body as batchable when it is exactly this for its own boundaries.
 */
export function exploreMarketsBody(
  accountId: number,
  options: MarketOptions,
  ids: readonly number[],
): ExploreMarketsBody {
  return {
    account_id: accountId,
    market_filters: { geo_type: options.geoType, geo_boundary_ids: [...ids] },
    property_filters: options.propertyFilters,
    sort: EXPLORE_DEFAULTS.sort,
    sort_direction: EXPLORE_DEFAULTS.sort_direction,
    limit: ids.length,
  };
}

/**
 * Market metrics by boundary id: one /explore_markets call per the contract's most markets
 * (`market_filters.geo_boundary_ids`, `limit` = their count). A boundary the service does not return
 * (unknown, not a market, or not of the type asked) fails its own callers with not_found.
 */
export const MARKET_METRICS = batchedRow("exploreMarkets", {
  maxPerCall: MAX_EXPLORE_MARKETS,
  itemId: (id: number) => String(id),
  keyParams: (options: MarketOptions, id) => ({
    geo_boundary_id: id,
    geo_type: options.geoType,
    property_filters: options.propertyFilters,
  }),
  reader: exploreMarketsReader,
  request: (options, ids, accountId) => ({ body: exploreMarketsBody(accountId, options, ids) }),
  split: (answer) => new Map(answer.data.map((market) => [String(market.attributes.id), market.attributes])),
  notFound: (options, id) =>
    new ApiError(
      "not_found",
      options.geoType
        ? `Boundary ${id} has no market metrics as a ${options.geoType} market.`
        : `Boundary ${id} has no market metrics (markets are MSAs and submarkets).`,
    ),
});

type PropertyAggregation = components["schemas"]["PropertyForecastAggregation"];
type BoundaryAggregation = components["schemas"]["BoundaryForecastAggregation"];
export type AggregationType = PropertyAggregation["aggregation_type"];
export type ForecastInterval = components["schemas"]["PropertyForecastRequest"]["interval"];

/** One series of a forecast; `name` is the caller's own key in the answer (default `field`). */
export interface ForecastAggregation {
  name?: string;
  field: PropertyAggregation["field"] | BoundaryAggregation["field"];
  aggregation_type: AggregationType;
}

/** Everything of a forecast request but its aggregations, defaults filled in: equal ones share one call. */
export interface ForecastParams {
  /** The property's or the boundary's id, as the row says. */
  id: number;
  interval: ForecastInterval;
  offset: string;
  /** ISO dates; the service clamps them to its window (current month + 5 years). */
  start?: string;
  end?: string;
  useRentValue: boolean;
  useSubmarketFallback: boolean;
}

/** One aggregation's values over the buckets. */
export type ForecastPoints = { date: string; value: number | null }[];

export const aggregationId = (aggregation: ForecastAggregation): string =>
  `${aggregation.field}:${aggregation.aggregation_type}`;

/**
 * A forecast row: requests for the same target, interval, window and options merge their aggregations into
 * one call; each aggregation's series is cached on its own (per month, where the window starts), so a later
 * request for a subset is served locally.
 */
function forecastRow<Op extends "getPropertyForecasts" | "getGeoBoundaryForecasts">(
  operationId: Op,
  target: "property" | "geo_boundary",
  path: (id: number) => RequestOf<Op>["params"],
) {
  return batchedRow(operationId, {
    maxPerCall: MAX_FORECAST_AGGREGATIONS,
    itemId: aggregationId,
    keyParams: ({ id, ...options }: ForecastParams, aggregation: ForecastAggregation) => ({
      target: id,
      ...options,
      aggregation: aggregationId(aggregation),
    }),
    period: (now) => new Date(now).toISOString().slice(0, 7),
    reader: forecastReader(operationId),
    request: (params, aggregations, accountId) => ({
      params: path(params.id),
      body: {
        account_id: accountId,
        interval: params.interval,
        offset: params.offset,
        use_rent_value: params.useRentValue,
        use_submarket_fallback: params.useSubmarketFallback,
        filters:
          params.start === undefined && params.end === undefined
            ? undefined
            : { collected_at_gte: params.start, collected_at_lte: params.end },
        aggregations: aggregations.map((aggregation) => ({
          name: aggregationId(aggregation),
          field: aggregation.field,
          aggregation_type: aggregation.aggregation_type,
        })),
      } as RequestOf<Op>["body"],
    }),
    split: (answer, aggregations) => {
      const series = answer.data.attributes.time_series;
      return new Map(
        aggregations.map((aggregation) => {
          const name = aggregationId(aggregation);
          return [name, series.map((entry) => ({ date: entry.date, value: entry.values[name] ?? null }))];
        }),
      );
    },
    notFound: (params, aggregation) =>
      new ApiError("not_found", `No ${aggregation.field} forecast for ${target} ${params.id}.`),
  });
}

export const PROPERTY_FORECAST = forecastRow("getPropertyForecasts", "property", (id) => ({
  path: { property_id: id },
}));

export const BOUNDARY_FORECAST = forecastRow("getGeoBoundaryForecasts", "geo_boundary", (id) => ({
  path: { geo_boundary_id: id },
}));
