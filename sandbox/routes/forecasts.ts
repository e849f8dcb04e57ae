import { randomUUID } from "node:crypto";
import type { components } from "../../src/api/schema";
import { inputOf, type OperationHandlers, type SandboxContext } from "../context";
import { FORECAST_WINDOW_MONTHS } from "../contract/limits";
import { bucketize, offsetDays, type Aggregation } from "../data/forecastBuckets";
import {
  boundarySeries,
  forecastPointDates,
  isRentGrowthField,
  monthStart,
  propertySeries,
  rentValues,
  roundForecast,
  type Series,
} from "../data/forecastModel";
import { boundaryMarket } from "../data/marketMetrics";
import { sendNotFound } from "../http/errors";

/** A forecast request as the contract types it, its defaults filled in by the request validator. */
type ForecastBody =
  components["schemas"]["PropertyForecastRequest"] | components["schemas"]["BoundaryForecastRequest"];

/** Rule 1: the window runs from the first day of this month for the contract's months; dates outside are clamped. */
function windowFilter(today: string, filters: ForecastBody["filters"]): (date: string) => boolean {
  const start = monthStart(today, 0);
  const end = monthStart(today, FORECAST_WINDOW_MONTHS);
  const from =
    filters?.collected_at_gte && filters.collected_at_gte > start ? filters.collected_at_gte : start;
  const to = filters?.collected_at_lte && filters.collected_at_lte < end ? filters.collected_at_lte : end;
  return (date) => date >= from && date <= to;
}

/** The property field's counterpart among the submarket's boundary fields. */
function submarketField(propertyField: string): string {
  return propertyField.replace(/^rent_growth_rate_yoy/, "rent_growth_yoy");
}

function allUnavailable(series: Series[], dates: string[], inWindow: (date: string) => boolean): boolean {
  return series.every((values) =>
    values.every((value, index) => value === null || !inWindow(dates[index] ?? "")),
  );
}

function forecastResponse(
  body: ForecastBody,
  today: string,
  seriesFor: (aggregation: Aggregation) => Series,
  fallbackFor: (aggregation: Aggregation) => Series | undefined,
  baseRent: number | null,
) {
  const dates = forecastPointDates(today);
  const inWindow = windowFilter(today, body.filters);
  const series = new Map<string, Series>();
  for (const aggregation of body.aggregations) series.set(aggregation.name, seriesFor(aggregation));
  const rentGrowth = body.aggregations.filter((aggregation) => isRentGrowthField(aggregation.field));
  // Rule 5: fall back only when every requested rent-growth series is unavailable; never touch the others.
  if (
    body.use_submarket_fallback &&
    rentGrowth.length > 0 &&
    allUnavailable(
      rentGrowth.map((aggregation) => series.get(aggregation.name) ?? []),
      dates,
      inWindow,
    )
  ) {
    for (const aggregation of rentGrowth) {
      const fallback = fallbackFor(aggregation);
      if (fallback) series.set(aggregation.name, fallback);
    }
  }
  // Rule 4: rent growth becomes rent in dollars from the baseline; other fields are unchanged.
  if (body.use_rent_value) {
    for (const aggregation of rentGrowth)
      series.set(aggregation.name, rentValues(series.get(aggregation.name) ?? [], baseRent));
  }
  const timeSeries = bucketize(
    dates,
    inWindow,
    series,
    body.aggregations,
    body.interval,
    offsetDays(body.offset),
    roundForecast,
  );
  return { data: { type: "forecasts" as const, id: randomUUID(), attributes: { time_series: timeSeries } } };
}

/** POST /properties/{property_id}/forecasts and POST /geo_boundary/{geo_boundary_id}/forecasts. */
export function forecastHandlers(
  context: SandboxContext,
): Pick<OperationHandlers, "getPropertyForecasts" | "getGeoBoundaryForecasts"> {
  return {
    getPropertyForecasts: (request, reply) => {
      const { params, body } = inputOf(request);
      const dataset = context.dataset();
      const property = dataset.propertyById.get(params.property_id as number);
      if (!property) return sendNotFound(reply, `Property ${String(params.property_id)} does not exist`);
      const today = context.clock.today();
      const submarket = dataset.boundary(property.submarketId);
      return forecastResponse(
        body as ForecastBody,
        today,
        (aggregation) => propertySeries(dataset, property, aggregation.field),
        (aggregation) =>
          submarket
            ? boundarySeries(dataset, submarket, submarketField(aggregation.field), today)
            : undefined,
        property.askingRent,
      );
    },

    getGeoBoundaryForecasts: (request, reply) => {
      const { params, body } = inputOf(request);
      const dataset = context.dataset();
      const boundary = dataset.boundary(params.geo_boundary_id as number);
      if (!boundary)
        return sendNotFound(reply, `Geo boundary ${String(params.geo_boundary_id)} does not exist`);
      const today = context.clock.today();
      const submarket =
        boundary.geoType === "ZipCode" && boundary.submarketId !== null
          ? dataset.boundary(boundary.submarketId)
          : undefined;
      const rent = boundaryMarket(dataset, boundary, today).rent_avg_t30;
      return forecastResponse(
        body as ForecastBody,
        today,
        (aggregation) => boundarySeries(dataset, boundary, aggregation.field, today),
        (aggregation) =>
          submarket ? boundarySeries(dataset, submarket, aggregation.field, today) : undefined,
        typeof rent === "number" ? rent : null,
      );
    },
  };
}
