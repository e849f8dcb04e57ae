import { forecastReader } from "../api/readers/serviceReaders";
import { readAnswer } from "../api/readers/answerForm";
import type { components } from "../api/schema";
import { ApiError } from "../api/errors";
import { operationById } from "../api/operations";
import { canonicalJson } from "./cacheKey";
import { BatchedQuery } from "./batchedQuery";
import type { BatchSchedule } from "./keyedBatcher";
import type { CacheKind } from "./cachePolicy";
import { sendOperation } from "./endpoints";
import type { QueryRunner } from "./queryRunner";

type PropertyAggregation = components["schemas"]["PropertyForecastAggregation"];
type BoundaryAggregation = components["schemas"]["BoundaryForecastAggregation"];
export type AggregationType = PropertyAggregation["aggregation_type"];
export type ForecastInterval = components["schemas"]["PropertyForecastRequest"]["interval"];

/** The forecast operation of each kind of target, and the reader of its answer. */
const FORECASTS = {
  property: { operation: operationById("getPropertyForecasts"), parameter: "property_id" },
  geo_boundary: { operation: operationById("getGeoBoundaryForecasts"), parameter: "geo_boundary_id" },
} as const;
const READERS = {
  property: forecastReader("getPropertyForecasts"),
  geo_boundary: forecastReader("getGeoBoundaryForecasts"),
};

/** Whose forecast: a property's or a boundary's (each has its own fields). */
export type ForecastTarget = { kind: "property"; id: number } | { kind: "geo_boundary"; id: number };

/** One series of a forecast; `name` is the caller's own key in the answer (default `field`). */
export interface ForecastAggregation {
  name?: string;
  field: PropertyAggregation["field"] | BoundaryAggregation["field"];
  aggregation_type: AggregationType;
}

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

/** Everything of a forecast request but its aggregations: requests equal in this merge into one call. */
export interface ForecastGroup {
  accountId: number;
  target: ForecastTarget;
  interval: ForecastInterval;
  offset: string;
  start?: string;
  end?: string;
  useRentValue: boolean;
  useSubmarketFallback: boolean;
  /** The current month (YYYY-MM): the forecast window starts there, so a new month is a new answer. */
  period: string;
}

/** One aggregation's values over the buckets. */
export type ForecastPoints = { date: string; value: number | null }[];

export function forecastGroup(
  accountId: number,
  target: ForecastTarget,
  query: ForecastQuery,
  now: number,
): { key: string; group: ForecastGroup } {
  const group: ForecastGroup = {
    accountId,
    target,
    interval: query.interval ?? "month",
    offset: query.offset ?? "0d",
    start: query.start,
    end: query.end,
    useRentValue: query.useRentValue ?? false,
    useSubmarketFallback: query.useSubmarketFallback ?? false,
    period: new Date(now).toISOString().slice(0, 7),
  };
  return { key: canonicalJson(group), group };
}

export const aggregationId = (aggregation: ForecastAggregation): string =>
  `${aggregation.field}:${aggregation.aggregation_type}`;

/**
 * Forecast requests for the same target, interval, window and options merge their aggregations into one
 * call; each aggregation's series is cached on its own, so a later request for a subset is served locally.
 */
export function forecastBatcher(
  runner: QueryRunner,
  settings: { maxAggregations: number; schedule: BatchSchedule },
): BatchedQuery<ForecastGroup, ForecastAggregation, ForecastPoints> {
  return new BatchedQuery(
    {
      maxPerCall: settings.maxAggregations,
      schedule: settings.schedule,
      itemId: aggregationId,
      cacheKey: (group, aggregation) => {
        const { accountId, target, period, ...options } = group;
        const { operation } = FORECASTS[target.kind];
        return runner.key({
          kind: operation.cacheKind as CacheKind,
          accountId,
          endpoint: operation.path,
          params: { target: target.id, ...options, aggregation: aggregationId(aggregation) },
          period,
        });
      },
      fetch: async (group, aggregations, signal) => {
        const named = aggregations.map((aggregation) => ({
          name: aggregationId(aggregation),
          field: aggregation.field,
          aggregation_type: aggregation.aggregation_type,
        }));
        const filters =
          group.start === undefined && group.end === undefined
            ? undefined
            : { collected_at_gte: group.start, collected_at_lte: group.end };
        const common = {
          account_id: group.accountId,
          interval: group.interval,
          offset: group.offset,
          use_rent_value: group.useRentValue,
          use_submarket_fallback: group.useSubmarketFallback,
          filters,
        };
        const { operation, parameter } = FORECASTS[group.target.kind];
        const answer = await runner.network(
          (context) =>
            readAnswer(
              READERS[group.target.kind],
              sendOperation(runner.client.api, operation, {
                ...context,
                params: { path: { [parameter]: group.target.id } },
                body: { ...common, aggregations: named },
              }),
            ),
          signal,
        );
        const series = answer.data.attributes.time_series;
        return new Map(
          named.map(({ name }) => [
            name,
            series.map((entry) => ({ date: entry.date, value: entry.values[name] ?? null })),
          ]),
        );
      },
      notFound: (group, aggregation) =>
        new ApiError(
          "not_found",
          `No ${aggregation.field} forecast for ${group.target.kind} ${group.target.id}.`,
        ),
    },
    runner,
  );
}
