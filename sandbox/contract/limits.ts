import { findOperation } from "./operations";

/**
 * Largest number of ids one bulk details call accepts (the contract's `x-max-ids`). The add-in
 * batches by it; the sandbox rejects more with 400.
 */
export const MAX_BULK_DETAILS_IDS: number = (() => {
  const value = findOperation("getBulkPropertyDetails").extensions["x-max-ids"];
  if (typeof value !== "number")
    throw new Error("getBulkPropertyDetails has no numeric x-max-ids in the contract");
  return value;
})();

/** The longest date range one bulk job covers, both ends included (the contract's `x-max-range-days`). */
export const MAX_JOB_RANGE_DAYS: number = (() => {
  const value = findOperation("createBulkJob").extensions["x-max-range-days"];
  if (typeof value !== "number")
    throw new Error("createBulkJob has no numeric x-max-range-days in the contract");
  return value;
})();

/** A live job's recorded size and end-to-end time (the contract's `x-expected-duration.observed`). */
export interface ObservedJobDuration {
  property_days: number;
  seconds: number;
}

export const OBSERVED_JOB_DURATIONS: readonly [ObservedJobDuration, ObservedJobDuration] = (() => {
  const extension = findOperation("createBulkJob").extensions["x-expected-duration"] as
    { observed?: ObservedJobDuration[] } | undefined;
  const [small, large, ...more] = extension?.observed ?? [];
  const valid = (point: ObservedJobDuration | undefined): point is ObservedJobDuration =>
    point !== undefined && point.property_days > 0 && point.seconds > 0;
  if (!valid(small) || !valid(large) || more.length > 0 || large.property_days <= small.property_days)
    throw new Error(
      "createBulkJob needs two x-expected-duration.observed points, smaller first, in the contract",
    );
  return [small, large];
})();
