import { ApiError } from "../api/errors";
import { watchAbort } from "./abortWatch";

/**
 * The signal of a request shared by several callers. Each caller joins with its own signal; the shared
 * request is aborted only when every caller that joined has given up, so one cancelled cell never cancels
 * the answer that other cells still wait for.
 */
export class SharedAbort {
  private readonly controller = new AbortController();
  /** The callers' signals still waiting, each with the function that stops watching it (one per signal). */
  private readonly waiting = new Map<AbortSignal, () => void>();
  /** Someone joined without a signal: that caller can never give up, so neither can the request. */
  private pinned = false;

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A caller waits with `signal`. A signal that joins again (a block of cells is one call) counts once. */
  join(signal: AbortSignal | undefined): void {
    if (!signal) {
      this.pinned = true;
      return;
    }
    if (signal.aborted || this.waiting.has(signal)) return;
    this.waiting.set(
      signal,
      watchAbort(signal, () => {
        this.waiting.delete(signal);
        if (this.waiting.size === 0 && !this.pinned) {
          this.controller.abort(new ApiError("cancelled", "Every caller cancelled the request."));
        }
      }),
    );
  }

  /** The shared request has settled: stop listening to the callers' signals. */
  release(): void {
    for (const unwatch of this.waiting.values()) unwatch();
    this.waiting.clear();
  }
}
