import { ApiError } from "../api/errors";

/**
 * The signal of a request shared by several callers. Each caller joins with its own signal; the shared
 * request is aborted only when every caller that joined has given up, so one cancelled cell never cancels
 * the answer that other cells still wait for.
 */
export class SharedAbort {
  private readonly controller = new AbortController();
  private waiting = 0;
  /** Someone joined without a signal: that caller can never give up, so neither can the request. */
  private pinned = false;

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  join(signal: AbortSignal | undefined): void {
    if (!signal) {
      this.pinned = true;
      return;
    }
    if (signal.aborted) return;
    this.waiting += 1;
    signal.addEventListener(
      "abort",
      () => {
        this.waiting -= 1;
        if (this.waiting === 0 && !this.pinned) {
          this.controller.abort(new ApiError("cancelled", "Every caller cancelled the request."));
        }
      },
      { once: true },
    );
  }
}
