import { ApiError } from "../api/errors";
import { toCellError } from "./cellErrors";

/** Longest a cell may wait for the service before it shows #N/A instead of #BUSY!. */
export const DEFAULT_CELL_TIMEOUT_MS = 60_000;

let cellTimeoutMs = DEFAULT_CELL_TIMEOUT_MS;

export function setCellTimeout(ms: number): void {
  cellTimeoutMs = ms;
}

/**
 * Runs one custom function call: gives the work a signal that fires when Excel cancels the call or when the
 * time bound passes, and turns every failure into a cell error. A cell always ends with a value or an error.
 */
export async function runCell<T>(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  if (invocation)
    invocation.onCanceled = () => controller.abort(new ApiError("cancelled", "Cancelled by Excel."));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ApiError(
        "timeout",
        `No answer within ${Math.round(cellTimeoutMs / 1000)} s. Recalculate to retry.`,
      );
      controller.abort(error);
      reject(error);
    }, cellTimeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } catch (error) {
    throw toCellError(error);
  } finally {
    clearTimeout(timer);
  }
}
