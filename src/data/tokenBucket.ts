/** How fast the client may send: `limit` requests per `windowMs`, of which at most `burst` at once. */
export interface PacingOptions {
  limit: number;
  windowMs: number;
  /**
   * Requests that may leave back to back. The refill rate is (limit - burst) / window, so that any window,
   * fixed or rolling, sees at most `limit` requests: burst + window * rate = limit.
   */
  burst: number;
}

/** The live service: about 100 requests per 5 minutes per caller. */
export const LIVE_PACING: PacingOptions = { limit: 100, windowMs: 300_000, burst: 50 };

/** Client-side pacing so that thousands of cells never cause a storm of 429s. */
export class TokenBucket {
  private tokens: number;
  private updatedAtMs: number;
  private ratePerMs = 0;

  constructor(
    private options: PacingOptions,
    private readonly now: () => number,
  ) {
    this.tokens = options.burst;
    this.updatedAtMs = now();
    this.reconfigure(options);
  }

  /**
   * Paces at another limit from now on. Tokens in hand are kept up to the new burst: a tighter limit takes
   * effect at once, a looser one fills up at its own rate.
   */
  reconfigure(options: PacingOptions): void {
    if (options.burst < 1 || options.burst > options.limit) {
      throw new Error("Pacing burst must be between 1 and the limit.");
    }
    this.refill();
    this.options = options;
    this.tokens = Math.min(this.tokens, options.burst);
    const refill = options.limit - options.burst;
    // limit === burst means "no refill beyond the window": refill the whole burst once per window.
    this.ratePerMs = (refill > 0 ? refill : options.burst) / options.windowMs;
  }

  /** Takes one token and returns 0, or returns how long to wait before one is available. */
  take(): number {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - this.tokens) / this.ratePerMs);
  }

  /** How long until `count` more tokens are in hand (0 when they are now), without taking any. */
  waitFor(count: number): number {
    this.refill();
    return count <= this.tokens ? 0 : Math.ceil((count - this.tokens) / this.ratePerMs);
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.options.burst, this.tokens + (now - this.updatedAtMs) * this.ratePerMs);
    this.updatedAtMs = now;
  }
}
