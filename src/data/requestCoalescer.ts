import { untilAborted } from "./abortableSleep";
import { SharedAbort } from "./sharedAbort";

interface InFlight {
  promise: Promise<unknown>;
  abort: SharedAbort;
}

/**
 * Identical requests in flight share one network call. Each caller waits with its own signal; the shared
 * call is cancelled only when all of its callers have cancelled.
 */
export class RequestCoalescer {
  private readonly inFlight = new Map<string, InFlight>();
  /** Callers that were served by a call another caller had already started. */
  shared = 0;

  run<T>(
    key: string,
    signal: AbortSignal | undefined,
    start: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    let entry = this.inFlight.get(key);
    if (entry) {
      this.shared += 1;
    } else {
      const abort = new SharedAbort();
      const promise = start(abort.signal).finally(() => {
        abort.release();
        if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
      });
      // Marks the rejection handled: callers that cancelled stop listening, yet the failure is theirs, not global.
      promise.catch(() => undefined);
      entry = { promise, abort };
      this.inFlight.set(key, entry);
    }
    entry.abort.join(signal);
    return untilAborted(entry.promise as Promise<T>, signal);
  }
}
