import { ApiError } from "../api/errors";
import type { AnswerTrail } from "./answerTrail";
import type { RefreshPass } from "./refreshPass";

/**
 * Where an answer came from: the cache (fresh), the network, the cache past its freshness because the service
 * could not be reached ("stale": show it, and say that it is the last known value), or the earlier answer a
 * refresh kept because asking again failed ("kept": show it, and say why).
 */
export type AnswerSource = "cache" | "network" | "stale" | "kept";

export interface Fetched<T> {
  value: T;
  source: AnswerSource;
  /** Epoch ms when the value arrived from the service. */
  storedAt: number;
  /** Why a new answer could not be had, for a "stale" or "kept" one. */
  reason?: string;
}

/** Per call: the caller's signal (cancels only this caller's wait) and how fresh the answer must be. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Skip the cache: ask the service (identical requests in flight still share one call). */
  fresh?: boolean;
  /**
   * The pane's refresh this call belongs to: a cached answer serves it only when fetched since the refresh
   * started or when nothing could have changed since it was fetched; the refresh learns what each answer was.
   */
  refresh?: RefreshPass;
  /** Told of every answer the call is given (its as-of), for the pane to show what a cell's value rests on. */
  trail?: AnswerTrail;
}

/**
 * From when a call takes cached answers without asking whether they could have changed: every fresh one, a
 * refresh's start, or never. Calls that agree on it share flights and batches.
 */
export function oldestAccepted(options: CallOptions): number {
  if (options.fresh) return Number.POSITIVE_INFINITY;
  return options.refresh?.startedAt ?? Number.NEGATIVE_INFINITY;
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
