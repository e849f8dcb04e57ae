import { ApiError } from "../api/errors";

/** A failure in words a person can act on. Never includes secrets: ApiError texts are written by us. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong. Try again.";
}
