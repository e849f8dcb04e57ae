import type { AnnouncedLimit } from "../api/rateLimitHeaders";
import { abortableSleep, abortReason, type Sleep } from "./abortableSleep";
import { watchAbort } from "./abortWatch";
import type { Gate, ReleaseSlot } from "./gate";
import { rateLimitedUntil } from "./rateLimitedUntil";
import { LIVE_PACING, TokenBucket, type PacingOptions } from "./tokenBucket";

export interface RequestGateOptions {
  pacing?: PacingOptions;
  /** Requests on the wire at once (browsers allow about six per origin anyway). */
  maxInFlight?: number;
  /**
   * Longest wait for the service's limit a request sits through. A longer one fails every request at once
   * ("rate limited until HH:MM") instead of holding cells until their own time bound runs out.
   */
  longestWaitMs?: number;
  now?: () => number;
  sleep?: Sleep;
}

/** Six, like a browser's connections per origin: more would only queue in the browser. */
export const DEFAULT_MAX_IN_FLIGHT = 6;

/** Half a cell's 60 s bound (src/functions/cellCall.ts) and below the pane's waits: a wait it can sit out. */
export const DEFAULT_LONGEST_WAIT_MS = 30_000;

const RETRY_AFTER_RESOLUTION_MS = 1000;

/** What the gate is working through: whether a waiting cell is in line behind a backlog that moves. */
export interface GateBacklog {
  /** Waiting for a turn or on the wire. */
  pending: number;
  waiting: number;
  lastGrantAtMs: number;
  lastReleaseAtMs: number;
}

/**
 * The pull the gate is working through, as the pane shows it: what waits, done of total, the time left at the
 * pacing in force, and why (the pacing, or a pause the service asked for). A pull starts when a request
 * arrives at an idle gate (nothing waiting, nothing on the wire); a request the service refused with a 429
 * and that goes again counts once more, since it costs another request.
 */
export interface PacingProgress {
  /** Requests waiting for their turn. */
  waiting: number;
  onTheWire: number;
  /** Requests of the pull answered (or failed). */
  done: number;
  /** done + on the wire + waiting. */
  total: number;
  /** Until the last waiting request's turn at the pacing in force, after any pause the service asked for. */
  timeLeftMs: number;
  /** The rest of a wait the service asked for (after a 429) that the waiting requests sit out; 0 when none. */
  pausedForMs: number;
  limit: GateLimit;
}

export type { ReleaseSlot } from "./gate";

interface Waiter {
  grant: (release: ReleaseSlot) => void;
  fail: (error: Error) => void;
}

/** The pacing in force and where it came from. */
export interface GateLimit extends PacingOptions {
  /** True once the service announced its limit (X-RateLimit-Limit); false while the documented one holds. */
  learned: boolean;
}

/** The burst a limit allows: half of it, as for the documented limit (50 of 100). */
function pacingFor(limit: number, windowMs: number): PacingOptions {
  return { limit, windowMs, burst: Math.max(1, Math.floor(limit / 2)) };
}

/**
 * The one door every request of a sign-in goes through, in arrival order. It holds requests back while the
 * service has told us to wait (a 429 pauses everyone, not only the request that got it), paces them with a
 * token bucket at the service's limit (the documented one until the service announces its own), and caps how
 * many are on the wire at once.
 */
export class RequestGate implements Gate {
  private readonly queue: Waiter[] = [];
  private readonly bucket: TokenBucket;
  private readonly maxInFlight: number;
  private readonly longestWaitMs: number;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly changeListeners = new Set<() => void>();
  private pacing: PacingOptions;
  private learned = false;
  private inFlight = 0;
  private pausedUntilMs = 0;
  private pause: Promise<void> | undefined;
  private pumping = false;
  private lastGrantAtMs = Number.NEGATIVE_INFINITY;
  private lastReleaseAtMs = Number.NEGATIVE_INFINITY;
  /** Requests of the current pull answered (or failed): the gate was last idle before its first arrived. */
  private doneSinceIdle = 0;
  /** How many times the gate held everyone back after a 429 (for stats and tests). */
  pauses = 0;
  /** How many times a request waited for its turn at the pacing (for the pane's usage lines). */
  pacedWaits = 0;

  constructor(options: RequestGateOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableSleep;
    this.maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this.longestWaitMs = options.longestWaitMs ?? DEFAULT_LONGEST_WAIT_MS;
    this.pacing = options.pacing ?? LIVE_PACING;
    this.bucket = new TokenBucket(this.pacing, this.now);
  }

  /** The pacing in force. */
  get limit(): GateLimit {
    return { ...this.pacing, learned: this.learned };
  }

  /**
   * Requests waiting for their turn or on the wire, and when the last one was let through: while there are
   * some and one went out lately, the pacing is moving a backlog along, and a cell waiting behind it is not
   * stuck (src/functions/cellCall.ts). Each request on the wire has its own time bound (requestExecutor.ts).
   */
  get backlog(): GateBacklog {
    return {
      pending: this.queue.length + this.inFlight,
      waiting: this.queue.length,
      lastGrantAtMs: this.lastGrantAtMs,
      lastReleaseAtMs: this.lastReleaseAtMs,
    };
  }

  /** The current pull's progress (see PacingProgress); `onChange` tells when it moves. */
  get progress(): PacingProgress {
    const now = this.now();
    const pausedForMs = Math.max(0, this.pausedUntilMs - now);
    const waiting = this.queue.length;
    return {
      waiting,
      onTheWire: this.inFlight,
      done: this.doneSinceIdle,
      total: this.doneSinceIdle + this.inFlight + waiting,
      // The waiting requests' turns at the pacing in force, after any pause the service asked for.
      timeLeftMs: waiting === 0 ? 0 : pausedForMs + this.bucket.waitFor(waiting),
      pausedForMs: this.refusesNow() ? 0 : pausedForMs,
      limit: this.limit,
    };
  }

  /**
   * Tells `listener` whenever the progress moves (a request arrives, goes out, is answered or cancelled; a pause
   * starts; the service announces its limit); returns the function that stops it.
   */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  /** Until when (epoch ms) requests are refused at once; undefined when they are not. */
  get refusingUntilMs(): number | undefined {
    return this.refusesNow() ? this.pausedUntilMs : undefined;
  }

  /** Waits for a turn; the caller must call the returned release when its request has finished. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.refusesNow()) return Promise.reject(rateLimitedUntil(this.pausedUntilMs, this.now()));
    return new Promise<ReleaseSlot>((grant, fail) => {
      let unwatch: () => void = () => undefined;
      const waiter: Waiter = {
        grant: (release) => {
          unwatch();
          grant(release);
        },
        fail: (error) => {
          unwatch();
          fail(error);
        },
      };
      if (signal) {
        unwatch = watchAbort(signal, () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) {
            this.queue.splice(index, 1);
            fail(abortReason(signal));
            this.changed();
          }
        });
      }
      // A request arriving at an idle gate starts a new pull to count.
      if (this.queue.length === 0 && this.inFlight === 0) this.doneSinceIdle = 0;
      this.queue.push(waiter);
      void this.pump();
      this.changed();
    });
  }

  /**
   * The service said "wait `ms`": nobody is let through until then. Retry-After counts whole seconds, so the
   * 429s of one burst, arriving a few ms apart, name ends within a second of each other: they share one pause.
   * Only a pause ending clearly later starts a new one. A pause longer than a caller may wait fails every
   * waiting request at once, and every new one until the rest of the pause is short enough to sit out.
   */
  pauseFor(ms: number): void {
    const now = this.now();
    const until = now + ms;
    const slack = this.pausedUntilMs > now ? RETRY_AFTER_RESOLUTION_MS : 0;
    if (until <= this.pausedUntilMs + slack) return;
    this.pausedUntilMs = until;
    this.pauses += 1;
    if (ms > this.longestWaitMs) {
      this.pause = undefined;
      const refusal = rateLimitedUntil(until, now);
      for (const waiter of this.queue.splice(0)) waiter.fail(refusal);
    } else this.sleepThrough(ms);
    this.changed();
  }

  /** Holds the queue for `ms`; when that sleep ends (and no later pause replaced it), the pause is over. */
  private sleepThrough(ms: number): void {
    const pause = this.sleep(ms).then(() => {
      if (this.pause !== pause) return;
      this.pause = undefined;
      this.pausedUntilMs = Math.min(this.pausedUntilMs, this.now());
    });
    this.pause = pause;
  }

  /**
   * Paces at the limit the service announced (X-RateLimit-Limit over X-RateLimit-Reset-After; the window in
   * force when it names only the count). The vendor says limits vary by endpoint, credentials and account.
   */
  adopt(announced: AnnouncedLimit): void {
    const windowMs =
      announced.windowSeconds === undefined ? this.pacing.windowMs : announced.windowSeconds * 1000;
    const same = announced.limit === this.pacing.limit && windowMs === this.pacing.windowMs;
    if (same && this.learned) return;
    if (!same) {
      this.pacing = pacingFor(announced.limit, windowMs);
      this.bucket.reconfigure(this.pacing);
    }
    this.learned = true;
    this.changed();
  }

  private refusesNow(): boolean {
    return this.pausedUntilMs - this.now() > this.longestWaitMs;
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
        // The rest of a long pause, now short enough that the requests queued since sit it out.
        const pausedForMs = this.pausedUntilMs - this.now();
        if (pausedForMs > 0) {
          this.sleepThrough(pausedForMs);
          continue;
        }
        const waitMs = this.bucket.take();
        if (waitMs > 0) {
          this.pacedWaits += 1;
          await this.sleep(waitMs);
          continue;
        }
        const waiter = this.queue.shift() as Waiter;
        this.inFlight += 1;
        this.lastGrantAtMs = this.now();
        let released = false;
        waiter.grant(() => {
          if (released) return;
          released = true;
          this.inFlight -= 1;
          this.doneSinceIdle += 1;
          this.lastReleaseAtMs = this.now();
          void this.pump();
          this.changed();
        });
        this.changed();
      }
    } finally {
      this.pumping = false;
    }
  }
}
