import { ApiError } from "../api/errors";
import { catalogueFields } from "../api/fieldFacts";
import type { ForecastAggregation } from "./batchedEndpoints";
import type { ForecastTarget } from "./forecastSeries";

/** Property and boundary forecasts take different fields: each the contract's `x-field-units` of its `field`. */
const FORECAST_FIELDS: Readonly<Record<ForecastTarget["kind"], ReadonlySet<string>>> = {
  property: new Set(Object.keys(catalogueFields("propertyForecast"))),
  geo_boundary: new Set(Object.keys(catalogueFields("boundaryForecast"))),
};

/**
 * Rejects a field the target does not have before it joins a merged call: one caller's bad field would
 * otherwise make the service refuse the whole call and fail every other caller sharing it.
 */
export function validateForecastFields(
  target: ForecastTarget,
  aggregations: readonly ForecastAggregation[],
): void {
  for (const { field } of aggregations) {
    if (!FORECAST_FIELDS[target.kind].has(field)) {
      throw new ApiError(
        "invalid_input",
        `${field} is not a forecast field of a ${target.kind.replace("_", " ")}.`,
      );
    }
  }
}
