/**
 * How a forecast bucket of several months combines them when a formula names no aggregation: by the field's
 * `x-aggregate` in the contract (flows such as deliveries add up), else an average (levels such as occupancy).
 */
import { factsIn } from "../../api/fieldFacts";
import type { components } from "../../api/schema";

export type ForecastRecord = "propertyForecast" | "boundaryForecast";

type Aggregation = components["schemas"]["AggregationType"];

/** A field's aggregation when none is named. */
export function defaultAggregation(record: ForecastRecord, field: string): Aggregation {
  return factsIn(record, field)?.aggregate ?? "avg";
}
