import { ApiError } from "../api/errors";
import type { ForecastAggregation } from "./batchedEndpoints";
import type { ForecastTarget } from "./forecastSeries";

// Property and boundary forecasts take different fields (api-spec.md and the vendor's boundary variants).
const PROPERTY_FIELD = /^(rent_growth_rate_yoy|occupancy_percent)(_downside|_upside)?$/;
const BOUNDARY_FIELD =
  /^(rent_growth_yoy(_bed_[0-3]|_class_[abc])?|occupancy|absorption|deliveries)(_downside|_upside)?$/;

/**
 * Rejects a field the target does not have before it joins a merged call: one caller's bad field would
 * otherwise make the service refuse the whole call and fail every other caller sharing it.
 */
export function validateForecastFields(
  target: ForecastTarget,
  aggregations: readonly ForecastAggregation[],
): void {
  const pattern = target.kind === "property" ? PROPERTY_FIELD : BOUNDARY_FIELD;
  for (const { field } of aggregations) {
    if (!pattern.test(field)) {
      throw new ApiError(
        "invalid_input",
        `${field} is not a forecast field of a ${target.kind.replace("_", " ")}.`,
      );
    }
  }
}
