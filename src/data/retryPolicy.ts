import type { ApiError } from "../api/errors";

export interface RetryOptions {
  /** Attempts in all for one request that meets 5xx, network failures or timeouts (1 = never retry). */
  maxAttempts: number;
  /** First backoff; each further retry doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How many 429 waits one request sits through before its caller hears "rate limited". */
  maxRateLimitWaits: number;
  /** Wait after a 429 that names no time (the notes measured about 330 s on the live service). */
  defaultRateLimitWaitMs: number;
  /** Longest one attempt may take before it counts as a timeout. */
  attemptTimeoutMs: number;
}

/**
 * Six attempts: with a fifth of attempts failing (a bad spell of the service) four would still leave about
 * one request in 400 failed, which a workbook of a few dozen requests shows as a cell at #N/A; six make it
 * about one in 10,000. Retries only happen on failures, and the worst-case backoff (about 15 s) stays far
 * inside a cell's time bound.
 */
export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRateLimitWaits: 3,
  defaultRateLimitWaitMs: 330_000,
  attemptTimeoutMs: 30_000,
};

/** Failures that may pass if asked again: the service had a problem, the connection broke, or it was slow. */
export function isTransient(error: ApiError): boolean {
  return error.kind === "server" || error.kind === "offline" || error.kind === "timeout";
}

/**
 * Backoff before retry number `retry` (1 for the first retry): "full jitter", a random wait between zero and
 * the exponential bound, so that many cells failing together do not come back together.
 */
export function backoffDelayMs(
  options: RetryOptions,
  retry: number,
  random: () => number = Math.random,
): number {
  const bound = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.round(random() * bound);
}

/** How long a 429 asks everyone to wait. */
export function rateLimitWaitMs(options: RetryOptions, error: ApiError): number {
  const seconds = error.details.retryAfterSeconds;
  return seconds === undefined ? options.defaultRateLimitWaitMs : Math.ceil(seconds * 1000);
}
