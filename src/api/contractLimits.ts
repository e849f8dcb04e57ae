/**
 * Limits the contract (src/api/openapi.yaml) declares and the client batches by, read from the generated table
 * of operations (contractOperations.ts) so each is written once, in the contract.
 */
import { operationById, type OperationId } from "./operations";

/** A bound the contract sets on a member of an operation's JSON body. */
function bodyLimit(operationId: OperationId, member: string, bound: "maximum" | "maxItems"): number {
  const value = operationById(operationId).body?.limits?.[member]?.[bound];
  if (value === undefined) throw new Error(`The contract sets no ${bound} on ${member} of ${operationId}`);
  return value;
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`The contract does not say ${what}`);
  return value;
}

/** Ids per bulk details call (`x-max-ids` of getBulkPropertyDetails). */
export const MAX_BULK_DETAILS_IDS = required(
  operationById("getBulkPropertyDetails").maxIds,
  "x-max-ids of getBulkPropertyDetails",
);

/** Markets per /explore_markets call (the `limit` maximum). */
export const MAX_EXPLORE_MARKETS = bodyLimit("exploreMarkets", "limit", "maximum");

/** Aggregations per forecast call (`maxItems` of `aggregations`). */
export const MAX_FORECAST_AGGREGATIONS = bodyLimit("getPropertyForecasts", "aggregations", "maxItems");

/** Property ids per bulk export job (`maxItems` of `property_ids` in CreateBulkJobRequest). */
export const MAX_JOB_PROPERTY_IDS = bodyLimit("createBulkJob", "property_ids", "maxItems");

/** Days one bulk export job covers at most, both ends included (`x-max-range-days` of createBulkJob). */
export const MAX_JOB_RANGE_DAYS = required(
  operationById("createBulkJob").maxRangeDays,
  "x-max-range-days of createBulkJob",
);

/**
 * Live jobs' recorded size (properties x days) and end-to-end seconds (`x-expected-duration.observed` of
 * createBulkJob): what the add-in expects a job to take, and the sandbox makes its jobs take.
 */
export const OBSERVED_JOB_DURATIONS = observedPair();

type Observed = { readonly property_days: number; readonly seconds: number };

/** The two recorded runs, smaller first: the power law runs through them. */
function observedPair(): readonly [Observed, Observed] {
  const observed = required(
    operationById("createBulkJob").observedDurations,
    "x-expected-duration.observed of createBulkJob",
  );
  const [small, large] = observed;
  if (observed.length !== 2 || !small || !large)
    throw new Error("x-expected-duration.observed of createBulkJob must hold two runs");
  return [small, large];
}
