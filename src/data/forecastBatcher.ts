import { forecastReader } from "../api/readers/serviceReaders";
import { readAnswer } from "../api/readers/answerForm";
import type { components } from "../api/schema";
import { ApiError } from "../api/errors";
import { canonicalJson } from "./cacheKey";
import { BatchedQuery } from "./batchedQuery";
import type { QueryRunner } from "./queryRunner";

type PropertyAggregation = components["schemas"]["PropertyForecastAggregation"];
type BoundaryAggregation = components["schemas"]["BoundaryForecastAggregation"];
export type AggregationType = PropertyAggregation["aggregation_type"];
export type ForecastInterval = components["schemas"]["PropertyForecastRequest"]["interval"];

const propertyForecastReader = forecastReader("/properties/{property_id}/forecasts");
const boundaryForecastReader = forecastReader("/geo_boundary/{geo_boundary_id}/forecasts");

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
  settings: { maxAggregations: number; windowMs: number },
): BatchedQuery<ForecastGroup, ForecastAggregation, ForecastPoints> {
  return new BatchedQuery(
    {
      maxPerCall: settings.maxAggregations,
      windowMs: settings.windowMs,
      itemId: aggregationId,
      cacheKey: (group, aggregation) => {
        const { accountId, target, period, ...options } = group;
        return runner.key({
          kind: "forecast",
          accountId,
          endpoint: `/${target.kind}/forecasts`,
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
        const answer = await runner.network((context) => {
          if (group.target.kind === "property") {
            return readAnswer(
              propertyForecastReader,
              runner.client.api.POST("/properties/{property_id}/forecasts", {
                ...context,
                params: { path: { property_id: group.target.id } },
                body: { ...common, aggregations: named as PropertyAggregation[] },
              }),
            );
          }
          return readAnswer(
            boundaryForecastReader,
            runner.client.api.POST("/geo_boundary/{geo_boundary_id}/forecasts", {
              ...context,
              params: { path: { geo_boundary_id: group.target.id } },
              body: { ...common, aggregations: named as BoundaryAggregation[] },
            }),
          );
        }, signal);
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
