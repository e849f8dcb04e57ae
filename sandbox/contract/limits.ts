import { findOperation } from "./operations";

/** The contract's limits, generated from it once for the add-in and the sandbox alike. */
export {
  FORECAST_WINDOW_MONTHS,
  MAX_BULK_DETAILS_IDS,
  MAX_JOB_RANGE_DAYS,
  OBSERVED_JOB_DURATIONS,
} from "../../src/api/contractLimits";

/** The message the contract gives a parameter's failed keyword (`x-error-messages`), e.g. a missing id list. */
export function parameterErrorMessage(operationId: string, parameter: string, keyword: string): string {
  const found = findOperation(operationId).parameters.find((candidate) => candidate.name === parameter);
  const message = (found?.schema["x-error-messages"] as Record<string, unknown> | undefined)?.[keyword];
  if (typeof message !== "string")
    throw new Error(`${operationId} gives ${parameter} no x-error-messages.${keyword} in the contract`);
  return message;
}
