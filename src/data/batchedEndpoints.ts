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
import { isOneOf } from "../api/enumValues";
import {
  bulkDetailsIds,
  operationById,
  type Operation,
  type OperationId,
  type OperationRequest,
} from "../api/operations";
import type { AnswerReader } from "../api/readers/answerForm";
import { bulkDetailsReader, exploreMarketsReader, forecastReader } from "../api/readers/serviceReaders";
import {
  aggregationTypeValues,
  boundaryForecastAggregationFieldValues,
  forecastIntervalValues,
  marketGeoTypeValues,
  propertyForecastAggregationFieldValues,
  type components,
} from "../api/schema";
import { canonicalJson } from "./cacheKey";
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
  /**
   * A request of this operation in the row's terms, when it is one the row could have sent (so it may be merged
   * with other callers' items): its parameters and items. Undefined for any other request, which is sent as it
   * is. The team relay reads people's requests with it, and knows whom an outgoing call serves.
   */
  readonly splitRequest: (request: OperationRequest) => { params: P; items: I[] } | undefined;
  /**
   * The answer one call for `items` would have got, in the contract's shape, from each item's value (undefined:
   * the service does not have it). Throws the item's error where one missing item fails the whole answer.
   */
  readonly assembleAnswer: (params: P, items: readonly I[], valueOf: (item: I) => V | undefined) => unknown;
}

/** Sends a row's request (through the gate, retried) and reads its answer with `reader`. */
export type SendRead = <T>(reader: AnswerReader<T>, request: object) => Promise<T>;

/** A row: the operation's facts from the table, the request typed by the operation, the answer by its reader. */
function batchedRow<Op extends OperationId, P, I, V, T>(
  operationId: Op,
  parts: Omit<BatchedEndpoint<P, I, V>, "operation" | "fetch" | "splitRequest"> & {
    reader: AnswerReader<T>;
    request: (params: P, items: readonly I[], accountId: number) => RequestOf<Op>;
    /** The answer's value per item id. */
    answerItems: (answer: T, items: readonly I[]) => Map<string, V>;
    /** See `BatchedEndpoint.splitRequest`; only called with a request of this row's operation. */
    splitRequest: (request: OperationRequest) => { params: P; items: I[] } | undefined;
  },
): BatchedEndpoint<P, I, V> {
  const { reader, request, answerItems, splitRequest, ...rest } = parts;
  const operation = operationById(operationId);
  return {
    operation,
    fetch: async (send, params, items, accountId) =>
      answerItems(await send(reader, request(params, items, accountId)), items),
    splitRequest: (candidate) =>
      candidate.operation.operationId === operationId && candidate.accountId !== undefined
        ? splitRequest(candidate)
        : undefined,
    ...rest,
  };
}

/** Positive whole ids, each once: items a batched row can ask for. */
const distinctIds = (values: unknown): values is number[] =>
  Array.isArray(values) &&
  values.length > 0 &&
  values.every((value) => Number.isSafeInteger(value) && (value as number) > 0) &&
  new Set(values).size === values.length;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const onlyKeys = (value: Record<string, unknown>, allowed: readonly string[]) =>
  Object.keys(value).every((key) => allowed.includes(key));

/** The answer's list of items, `id` and `type` as the contract gives them. */
const listAnswer = <V>(type: string, values: { id: number; attributes: V }[]) => ({
  data: values.map(({ id, attributes }) => ({ id: String(id), type, attributes })),
});

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
  answerItems: (answer) => new Map(answer.data.map((record) => [String(record.id), record.attributes])),
  notFound: (_, id) => new ApiError("not_found", `Property ${id} was not found.`),
  splitRequest: (request) => {
    const ids = bulkDetailsIds(request);
    return ids !== "both" && distinctIds(ids) ? { params: {}, items: ids } : undefined;
  },
  assembleAnswer: (_, ids, valueOf) =>
    listAnswer(
      "properties",
      ids.flatMap((id) => {
        const attributes = valueOf(id);
        return attributes ? [{ id, attributes }] : [];
      }),
    ),
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
  answerItems: (answer) =>
    new Map(answer.data.map((market) => [String(market.attributes.id), market.attributes])),
  notFound: (options, id) =>
    new ApiError(
      "not_found",
      options.geoType
        ? `Boundary ${id} has no market metrics as a ${options.geoType} market.`
        : `Boundary ${id} has no market metrics (markets are MSAs and submarkets).`,
    ),
  // Exactly the body this row builds for its boundaries: any other ranking, limit or filter is not a merge.
  splitRequest: (request) => {
    const { body, accountId } = request;
    const filters = body?.market_filters;
    if (!isObject(filters) || !distinctIds(filters.geo_boundary_ids)) return undefined;
    const { geo_type: geoType } = filters;
    const propertyFilters = body?.property_filters;
    if (geoType !== undefined && !isOneOf(marketGeoTypeValues, geoType)) return undefined;
    if (propertyFilters !== undefined && !isObject(propertyFilters)) return undefined;
    const params: MarketOptions = {
      geoType,
      propertyFilters: propertyFilters as MarketOptions["propertyFilters"],
    };
    const ids = filters.geo_boundary_ids;
    const built = exploreMarketsBody(accountId as number, params, ids);
    return canonicalJson(built) === canonicalJson(body) ? { params, items: ids } : undefined;
  },
  // Ranked by property count, as the body asks.
  assembleAnswer: (_, ids, valueOf) =>
    listAnswer(
      "compare_market",
      ids
        .flatMap((id) => {
          const attributes = valueOf(id);
          return attributes ? [{ id, attributes }] : [];
        })
        .sort((a, b) => b.attributes.property_count_total - a.attributes.property_count_total),
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
    answerItems: (answer, aggregations) => {
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
    splitRequest: (request) => splitForecast(operationId, target, request),
    // The caller's names key the values; every series must be there, as one call would answer.
    assembleAnswer: (params, aggregations, valueOf) => {
      const rows: { date: string; values: Record<string, number | null> }[] = [];
      for (const aggregation of aggregations) {
        const points = valueOf(aggregation);
        if (!points)
          throw new ApiError("not_found", `No ${aggregation.field} forecast for ${target} ${params.id}.`);
        points.forEach((point, row) => {
          const entry = (rows[row] ??= { date: point.date, values: {} });
          entry.values[aggregation.name ?? aggregation.field] = point.value;
        });
      }
      return {
        data: { id: globalThis.crypto.randomUUID(), type: "forecasts", attributes: { time_series: rows } },
      };
    },
  });
}

/** A body member's pattern, as the contract writes it (one copy of it: the contract's). */
function contractPattern(operationId: OperationId, member: string): RegExp {
  const pattern = operationById(operationId).body?.types[member]?.pattern;
  if (pattern === undefined) throw new Error(`${operationId} gives ${member} no pattern in the contract`);
  return new RegExp(pattern);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A forecast request in its row's terms: every field one the row carries, each aggregation a field of the target
 * (a field the service would refuse must not fail everyone merged with it), names distinct; the contract's
 * defaults filled in, as the add-in fills them, so a request naming them merges with one leaving them out.
 */
function splitForecast(
  operationId: "getPropertyForecasts" | "getGeoBoundaryForecasts",
  target: "property" | "geo_boundary",
  request: OperationRequest,
): { params: ForecastParams; items: ForecastAggregation[] } | undefined {
  const { body, values } = request;
  const id = values[target === "property" ? "property_id" : "geo_boundary_id"];
  if (!body || typeof id !== "number") return undefined;
  if (!onlyKeys(body, operationById(operationId).body?.properties ?? [])) return undefined;
  const { aggregations, interval, offset, use_rent_value, use_submarket_fallback, filters } = body;
  if (
    !Array.isArray(aggregations) ||
    aggregations.length === 0 ||
    aggregations.length > MAX_FORECAST_AGGREGATIONS
  )
    return undefined;
  const fields =
    target === "property" ? propertyForecastAggregationFieldValues : boundaryForecastAggregationFieldValues;
  const items: ForecastAggregation[] = [];
  for (const aggregation of aggregations) {
    if (!isObject(aggregation) || !onlyKeys(aggregation, ["name", "field", "aggregation_type"]))
      return undefined;
    const { name, field, aggregation_type } = aggregation;
    if (!isOneOf(fields, field) || !isOneOf(aggregationTypeValues, aggregation_type)) return undefined;
    if (name !== undefined && typeof name !== "string") return undefined;
    items.push({ name: name ?? field, field, aggregation_type });
  }
  if (new Set(items.map((item) => item.name)).size !== items.length) return undefined;
  if (interval !== undefined && !isOneOf(forecastIntervalValues, interval)) return undefined;
  if (
    offset !== undefined &&
    (typeof offset !== "string" || !contractPattern(operationId, "offset").test(offset))
  )
    return undefined;
  for (const flag of [use_rent_value, use_submarket_fallback])
    if (flag !== undefined && typeof flag !== "boolean") return undefined;
  let start: string | undefined;
  let end: string | undefined;
  if (filters !== undefined) {
    if (!isObject(filters) || !onlyKeys(filters, ["collected_at_gte", "collected_at_lte"])) return undefined;
    const dates = [filters.collected_at_gte, filters.collected_at_lte];
    if (dates.some((date) => date !== undefined && (typeof date !== "string" || !ISO_DATE.test(date))))
      return undefined;
    [start, end] = dates as (string | undefined)[];
  }
  const defaults = bodyDefaults(operationId);
  return {
    params: {
      id,
      interval: (interval as ForecastInterval | undefined) ?? defaults.interval,
      offset: (offset as string | undefined) ?? defaults.offset,
      start,
      end,
      useRentValue: (use_rent_value as boolean | undefined) ?? defaults.use_rent_value,
      useSubmarketFallback:
        (use_submarket_fallback as boolean | undefined) ?? defaults.use_submarket_fallback,
    },
    items,
  };
}

export const PROPERTY_FORECAST = forecastRow("getPropertyForecasts", "property", (id) => ({
  path: { property_id: id },
}));

export const BOUNDARY_FORECAST = forecastRow("getGeoBoundaryForecasts", "geo_boundary", (id) => ({
  path: { geo_boundary_id: id },
}));

/** Every batched row of the table. */
export const BATCHED_ROWS: readonly BatchedEndpoint<unknown, unknown, unknown>[] = [
  PROPERTY_DETAILS,
  MARKET_METRICS,
  PROPERTY_FORECAST,
  BOUNDARY_FORECAST,
] as unknown as BatchedEndpoint<unknown, unknown, unknown>[];

/**
 * A request read by the batched row of its operation: the row, its parameters and items; undefined when no
 * row makes requests of this shape.
 */
export function splitByRow(
  request: OperationRequest,
): { row: BatchedEndpoint<unknown, unknown, unknown>; params: unknown; items: unknown[] } | undefined {
  const row = BATCHED_ROWS.find((candidate) => candidate.operation === request.operation);
  const split = row?.splitRequest(request);
  return row && split ? { row, ...split } : undefined;
}
