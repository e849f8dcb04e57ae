import { abortableSleep, abortReason, type Sleep } from "./abortableSleep";
import { LIVE_PACING, TokenBucket, type PacingOptions } from "./tokenBucket";

export interface RequestGateOptions {
  pacing?: PacingOptions;
  /** Requests on the wire at once (browsers allow about six per origin anyway). */
  maxInFlight?: number;
  now?: () => number;
  sleep?: Sleep;
}

const RETRY_AFTER_RESOLUTION_MS = 1000;

/** Gives back the slot of a request once its answer (or failure) has arrived. */
export type ReleaseSlot = () => void;

interface Waiter {
  grant: (release: ReleaseSlot) => void;
  fail: (error: Error) => void;
  signal?: AbortSignal;
}

/**
 * The one door every request of a sign-in goes through, in arrival order. It holds requests back while the
 * service has told us to wait (a 429 pauses everyone, not only the request that got it), paces them with a
 * token bucket, and caps how many are on the wire at once.
 */
export class RequestGate {
  private readonly queue: Waiter[] = [];
  private readonly bucket: TokenBucket;
  private readonly maxInFlight: number;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private inFlight = 0;
  private pausedUntilMs = 0;
  private pause: Promise<void> | undefined;
  private pumping = false;
  /** How many times the gate held everyone back after a 429 (for stats and tests). */
  pauses = 0;

  constructor(options: RequestGateOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableSleep;
    this.maxInFlight = options.maxInFlight ?? 6;
    this.bucket = new TokenBucket(options.pacing ?? LIVE_PACING, this.now);
  }

  /** Waits for a turn; the caller must call the returned release when its request has finished. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<ReleaseSlot>((grant, fail) => {
      const waiter: Waiter = { grant, fail, signal };
      signal?.addEventListener(
        "abort",
        () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) {
            this.queue.splice(index, 1);
            fail(abortReason(signal));
          }
        },
        { once: true },
      );
      this.queue.push(waiter);
      void this.pump();
    });
  }

  /**
   * The service said "wait `ms`": nobody is let through until then. Retry-After counts whole seconds, so the
   * 429s of one burst, arriving a few ms apart, name ends within a second of each other: they share one pause.
   * Only a pause ending clearly later starts a new one.
   */
  pauseFor(ms: number): void {
    const until = this.now() + ms;
    const slack = this.pause ? RETRY_AFTER_RESOLUTION_MS : 0;
    if (until <= this.pausedUntilMs + slack) return;
    this.pausedUntilMs = until;
    this.pauses += 1;
    const pause = this.sleep(ms).then(() => {
      if (this.pause === pause) this.pause = undefined;
    });
    this.pause = pause;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0 && this.inFlight < this.maxInFlight) {
        if (this.pause) {
          await this.pause;
          continue;
        }
        const waitMs = this.bucket.take();
        if (waitMs > 0) {
          await this.sleep(waitMs);
          continue;
        }
        const waiter = this.queue.shift() as Waiter;
        this.inFlight += 1;
        let released = false;
        waiter.grant(() => {
          if (released) return;
          released = true;
          this.inFlight -= 1;
          void this.pump();
        });
      }
    } finally {
      this.pumping = false;
    }
  }
}
