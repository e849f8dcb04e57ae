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
