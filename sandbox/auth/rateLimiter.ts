import type { SandboxClock } from "../clock";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  windowSeconds: number;
  /** Unix seconds at which the current window ends. */
  resetAt: number;
  /** Whole seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
}

/**
 * Fixed-window request limit per bearer token, like the live service's "about 100 requests per
 * 5 minutes per caller". The window starts with a token's first request.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly clock: SandboxClock,
    private limit: number,
    private windowSeconds: number,
  ) {}

  configure(limit: number, windowSeconds: number): void {
    this.limit = limit;
    this.windowSeconds = windowSeconds;
    this.windows.clear();
  }

  settings(): { limit: number; windowSeconds: number } {
    return { limit: this.limit, windowSeconds: this.windowSeconds };
  }

  /** Counts one request for the key and says whether it may proceed. */
  consume(key: string): RateLimitDecision {
    const now = this.clock.now() / 1000;
    let window = this.windows.get(key);
    if (!window || now >= window.startedAt + this.windowSeconds) {
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return this.describe(window, window.count <= this.limit);
  }

  /** The headers' view of a key's window without counting a request (used by injected 429 bursts). */
  peek(key: string): RateLimitDecision {
    const now = this.clock.now() / 1000;
    const window = this.windows.get(key) ?? { startedAt: now, count: 0 };
    return this.describe(window, true);
  }

  reset(): void {
    this.windows.clear();
  }

  private describe(window: { startedAt: number }, allowed: boolean): RateLimitDecision {
    const endsAt = window.startedAt + this.windowSeconds;
    return {
      allowed,
      limit: this.limit,
      windowSeconds: this.windowSeconds,
      resetAt: Math.ceil(endsAt),
      retryAfterSeconds: Math.max(1, Math.ceil(endsAt - this.clock.now() / 1000)),
    };
  }
}
