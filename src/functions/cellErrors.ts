import { ApiError } from "../api/errors";

/** A bad argument typed into a formula: becomes #VALUE! with a message naming the argument. */
export class ArgumentError extends Error {
  override readonly name = "ArgumentError";
}

/**
 * The one mapping from failures to Excel cell errors. Only #VALUE! and #N/A show a custom message in Excel,
 * so bad arguments are #VALUE! and everything that means "no data for you right now" is #N/A with the reason:
 * an answer in a form the add-in cannot read (`unexpected_answer`) too, with the endpoint and field it names.
 */
export function toCellError(error: unknown): CustomFunctions.Error {
  const { ErrorCode } = CustomFunctions;
  if (error instanceof CustomFunctions.Error) return error;
  if (error instanceof ArgumentError) return new CustomFunctions.Error(ErrorCode.invalidValue, error.message);
  if (error instanceof ApiError) {
    const code = error.kind === "invalid_input" ? ErrorCode.invalidValue : ErrorCode.notAvailable;
    return new CustomFunctions.Error(code, error.message);
  }
  return new CustomFunctions.Error(
    ErrorCode.notAvailable,
    "Unexpected problem in the add-in. Recalculate to retry.",
  );
}
