/**
 * The bodies of batched calls the add-in's rows make, read back into their rows' terms: an incoming request of
 * this shape is answered through the rows (merged with everyone else's), and an outgoing call is known by the
 * items it carries. A body of any other shape is not "batchable" and is forwarded as it is.
 */
import { MAX_FORECAST_AGGREGATIONS } from "../../src/api/contractLimits";
import { isOneOf } from "../../src/api/enumValues";
import { operationById } from "../../src/api/operations";
import { forecastIntervalValues, marketGeoTypeValues } from "../../src/api/schema";
import { exploreMarketsBody, type MarketOptions } from "../../src/data/batchedEndpoints";
import { canonicalJson } from "../../src/data/cacheKey";
import type { ForecastAggregation, ForecastQuery } from "../../src/data/dataLayer";
import { isObject } from "./accountAccess";

type Json = Record<string, unknown>;

/** The top-level properties the contract gives an operation's body. */
const bodyProperties = (operationId: "getPropertyForecasts") =>
  operationById(operationId).body?.properties ?? [];
const onlyKeys = (value: Json, allowed: readonly string[]) =>
  Object.keys(value).every((key) => allowed.includes(key));
const positiveIds = (values: unknown[]): values is number[] =>
  values.length > 0 && values.every((value) => Number.isSafeInteger(value) && (value as number) > 0);

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
