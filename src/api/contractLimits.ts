/**
 * Limits the contract (src/api/openapi.yaml) declares and the client batches by. openapi-typescript does not
 * carry vendor extensions into types, so they are written here once; test/api/contractLimits.test.ts checks
 * them against the contract.
 */

/** Ids per bulk details call (`x-max-ids` of getBulkPropertyDetails). */
export const MAX_BULK_DETAILS_IDS = 200;

/** Markets per /explore_markets call (the `limit` maximum). */
export const MAX_EXPLORE_MARKETS = 100;

/** Aggregations per forecast call (`maxItems` of `aggregations`). */
export const MAX_FORECAST_AGGREGATIONS = 50;

/** Property ids per bulk export job (`maxItems` of `property_ids` in CreateBulkJobRequest). */
export const MAX_JOB_PROPERTY_IDS = 1000;

/** Days one bulk export job covers at most, both ends included (`x-max-range-days` of createBulkJob). */
export const MAX_JOB_RANGE_DAYS = 400;

/**
 * Live jobs' recorded size (properties x days) and end-to-end seconds (`x-expected-duration.observed` of
 * createBulkJob): what the add-in expects a job to take, and the sandbox makes its jobs take.
 */
export const OBSERVED_JOB_DURATIONS = [
  { property_days: 31, seconds: 30 },
  { property_days: 3950, seconds: 450 },
] as const;

/**
 * The one bulk export quota size seen live (`x-bulk-export-quota.seen_live_limit` of getBulkPropertyDetails): what
 * the quota guard assumes until the service (a quota error) or the person names the account's own.
 */
export const BULK_EXPORT_QUOTA_SEEN_LIVE = 5000;
