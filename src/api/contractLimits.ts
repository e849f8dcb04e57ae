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
