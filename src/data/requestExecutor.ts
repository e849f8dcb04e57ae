import { ApiError } from "../api/errors";
import { abortableSleep, abortReason, type Sleep } from "./abortableSleep";
import { watchAbort } from "./abortWatch";
import type { Gate } from "./gate";
import {
  backoffDelayMs,
  DEFAULT_RETRY,
  isTransient,
  rateLimitWaitMs,
  type RetryOptions,
} from "./retryPolicy";

/** One logical request to the service, sent once per attempt. */
export interface OutgoingRequest<T> {
  /**
   * Whether sending it twice does no harm. Reads are; submitting an export job is not, so a job that met a
   * 5xx, a dropped connection or a timeout is never sent again blindly (it may already exist).
   */
  idempotent: boolean;
  send: (signal: AbortSignal) => Promise<T>;
}

export interface ExecutorStats {
  /** Attempts handed to the network (each one HTTP request, plus a token renewal retry on a 401). */
  attempts: number;
  retries: number;
  rateLimitWaits: number;
}

/**
 * Runs requests through the gate with bounded retries: exponential backoff with jitter for transient
 * failures, and a shared wait for 429s (the gate holds everyone back, then the request goes again).
 */
export class RequestExecutor {
  readonly stats: ExecutorStats = { attempts: 0, retries: 0, rateLimitWaits: 0 };

  constructor(
    private readonly gate: Gate,
    private readonly retry: RetryOptions = DEFAULT_RETRY,
    private readonly sleep: Sleep = abortableSleep,
    private readonly random: () => number = Math.random,
  ) {}

  async run<T>(request: OutgoingRequest<T>, signal: AbortSignal): Promise<T> {
    let failures = 0;
    let rateLimitWaits = 0;
    for (;;) {
      const release = await this.gate.acquire(signal);
      let error: ApiError;
      try {
        this.stats.attempts += 1;
        return await this.attempt(request, signal);
      } catch (caught) {
        error =
          caught instanceof ApiError ? caught : new ApiError("server", "Unexpected failure of a request.");
        // Pause before this slot is released, or the release would let the next waiter out first.
        if (error.kind === "rate_limited") this.gate.pauseFor(rateLimitWaitMs(this.retry, error));
      } finally {
        release();
      }
      if (error.kind === "rate_limited") {
        // A 429 is refused before any work is done, so asking again is safe even for a job submission.
        rateLimitWaits += 1;
        this.stats.rateLimitWaits += 1;
        if (rateLimitWaits > this.retry.maxRateLimitWaits) throw error;
        continue;
      }
      failures += 1;
      if (!request.idempotent || !isTransient(error) || failures >= this.retry.maxAttempts) throw error;
      if (signal.aborted) throw abortReason(signal);
      this.stats.retries += 1;
      await this.sleep(backoffDelayMs(this.retry, failures, this.random), signal);
    }
  }

  /** One attempt, bounded in time; the caller's signal still cancels it. */
  private async attempt<T>(request: OutgoingRequest<T>, signal: AbortSignal): Promise<T> {
    const controller = new AbortController();
    const unwatch = watchAbort(signal, () => controller.abort(signal.reason));
    const timer = setTimeout(
      () => controller.abort(new ApiError("timeout", "The service did not answer in time.")),
      this.retry.attemptTimeoutMs,
    );
    try {
      return await request.send(controller.signal);
    } finally {
      clearTimeout(timer);
      unwatch();
    }
  }
}
