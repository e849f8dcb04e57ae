import { ApiError } from "../api/errors";
import type { AnswerTrail } from "./answerTrail";

/**
 * Where an answer came from: the cache (fresh), the network, or the cache past its freshness because the
 * service could not be reached ("stale": show it, and say that it is the last known value).
 */
export type AnswerSource = "cache" | "network" | "stale";

export interface Fetched<T> {
  value: T;
  source: AnswerSource;
  /** Epoch ms when the value arrived from the service. */
  storedAt: number;
}

/** Per call: the caller's signal (cancels only this caller's wait) and how fresh the answer must be. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Skip the cache: ask the service (identical requests in flight still share one call). */
  fresh?: boolean;
  /**
   * Accept only answers stored at or after this instant (epoch ms). A refresh that started at T passes T: the
   * first cell asks the service, and every later cell of the same refresh is served what that call stored.
   */
  freshSince?: number;
  /** Told of every answer the call is given (its as-of), for the pane to show what a cell's value rests on. */
  trail?: AnswerTrail;
}

/** The oldest storedAt a call accepts from the cache: everything, a refresh's start, or nothing. */
export function oldestAccepted(options: CallOptions): number {
  if (options.fresh) return Number.POSITIVE_INFINITY;
  return options.freshSince ?? Number.NEGATIVE_INFINITY;
}

/** Options of calls made on behalf of an account. */
export interface AccountCallOptions extends CallOptions {
  accountId: number;
}

/** Failures after which the last known value is better than nothing: the service could not be reached. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ApiError && (error.kind === "offline" || error.kind === "timeout");
}

export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError("server", error instanceof Error ? error.message : "Unexpected failure.");
}
