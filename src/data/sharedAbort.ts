import { ApiError } from "../api/errors";

/**
 * The signal of a request shared by several callers. Each caller joins with its own signal; the shared
 * request is aborted only when every caller that joined has given up, so one cancelled cell never cancels
 * the answer that other cells still wait for.
 */
export class SharedAbort {
  private readonly controller = new AbortController();
  /** The callers' signals still waiting, each with the listener it was given (one per signal). */
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
    const gaveUp = () => {
      this.waiting.delete(signal);
      if (this.waiting.size === 0 && !this.pinned) {
        this.controller.abort(new ApiError("cancelled", "Every caller cancelled the request."));
      }
    };
    this.waiting.set(signal, gaveUp);
    signal.addEventListener("abort", gaveUp, { once: true });
  }

  /** The shared request has settled: stop listening to the callers' signals. */
  release(): void {
    for (const [signal, gaveUp] of this.waiting) signal.removeEventListener("abort", gaveUp);
    this.waiting.clear();
  }
}
