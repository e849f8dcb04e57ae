import type { SandboxClock } from "../clock";

/**
 * `fixed`: a window per token that starts with its first request (the contract's decision).
 * `rolling`: the last window's requests count, and a burst halves the limit for a window, as a team running
 * against the live service observed ("a stricter rolling window after bursts").
 */
export type RateLimitMode = "fixed" | "rolling";

export const RATE_LIMIT_MODES: readonly RateLimitMode[] = ["fixed", "rolling"];

export interface RateLimitSettings {
  limit: number;
  windowSeconds: number;
  mode: RateLimitMode;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** The limit in force for this token now (lower than the configured one while a rolling window is tightened). */
  limit: number;
  windowSeconds: number;
  /** Unix seconds at which the current window ends (rolling: when its oldest request stops counting). */
  resetAt: number;
  /** Whole seconds until a request may pass again (at least 1). */
  retryAfterSeconds: number;
}

/**
 * Rolling mode: a burst is more than 60 % of the limit within a tenth of the window. A client paced like the
 * add-in (half the limit at once, the rest spread over the window) sends at most 55 % in any tenth.
 */
const BURST_SHARE_OF_LIMIT = 0.6;
const BURST_SHARE_OF_WINDOW = 0.1;

interface FixedWindow {
  startedAt: number;
  count: number;
}

interface RollingWindow {
  /** Unix seconds of the requests of the last window, oldest first (refused ones count too). */
  sent: number[];
  /** Until when (Unix seconds) the token's limit is halved after a burst. */
  tightenedUntil: number;
}

/**
 * Request limit per bearer token, like the live service's "about 100 requests per 5 minutes per caller".
 * Every request counts, refused or not: a client that ignores Retry-After only extends its wait.
 */
export class RateLimiter {
  private readonly fixed = new Map<string, FixedWindow>();
  private readonly rolling = new Map<string, RollingWindow>();

  constructor(
    private readonly clock: SandboxClock,
    private limit: number,
    private windowSeconds: number,
    private mode: RateLimitMode = "fixed",
  ) {}

  configure(limit: number, windowSeconds: number, mode: RateLimitMode = this.mode): void {
    this.limit = limit;
    this.windowSeconds = windowSeconds;
    this.mode = mode;
    this.reset();
  }

  settings(): RateLimitSettings {
    return { limit: this.limit, windowSeconds: this.windowSeconds, mode: this.mode };
  }

  /** Counts one request for the key and says whether it may proceed. */
  consume(key: string): RateLimitDecision {
    return this.mode === "fixed" ? this.consumeFixed(key) : this.consumeRolling(key);
  }

  /** The headers' view of a key's window without counting a request (used by injected 429 bursts). */
  peek(key: string): RateLimitDecision {
    const now = this.nowSeconds();
    if (this.mode === "fixed") {
      const window = this.fixed.get(key) ?? { startedAt: now, count: 0 };
      return this.describeFixed(window, true);
    }
    const window = this.rolling.get(key) ?? { sent: [], tightenedUntil: 0 };
    this.forgetOld(window, now);
    return this.describeRolling(window, now, true);
  }

  reset(): void {
    this.fixed.clear();
    this.rolling.clear();
  }

  private nowSeconds(): number {
    return this.clock.now() / 1000;
  }

  private consumeFixed(key: string): RateLimitDecision {
    const now = this.nowSeconds();
    let window = this.fixed.get(key);
    if (!window || now >= window.startedAt + this.windowSeconds) {
      window = { startedAt: now, count: 0 };
      this.fixed.set(key, window);
    }
    window.count += 1;
    return this.describeFixed(window, window.count <= this.limit);
  }

  private describeFixed(window: FixedWindow, allowed: boolean): RateLimitDecision {
    const endsAt = window.startedAt + this.windowSeconds;
    return {
      allowed,
      limit: this.limit,
      windowSeconds: this.windowSeconds,
      resetAt: Math.ceil(endsAt),
      retryAfterSeconds: Math.max(1, Math.ceil(endsAt - this.nowSeconds())),
    };
  }

  private consumeRolling(key: string): RateLimitDecision {
    const now = this.nowSeconds();
    let window = this.rolling.get(key);
    if (!window) {
      window = { sent: [], tightenedUntil: 0 };
      this.rolling.set(key, window);
    }
    this.forgetOld(window, now);
    const allowed = window.sent.length < this.limitOf(window, now);
    window.sent.push(now);
    const burstStart = now - this.windowSeconds * BURST_SHARE_OF_WINDOW;
    const recent = window.sent.length - window.sent.findIndex((at) => at > burstStart);
    if (recent > this.limit * BURST_SHARE_OF_LIMIT) window.tightenedUntil = now + this.windowSeconds;
    return this.describeRolling(window, now, allowed);
  }

  private limitOf(window: RollingWindow, now: number): number {
    return now < window.tightenedUntil ? Math.max(1, Math.floor(this.limit / 2)) : this.limit;
  }

  private forgetOld(window: RollingWindow, now: number): void {
    const firstCounted = window.sent.findIndex((at) => at > now - this.windowSeconds);
    window.sent.splice(0, firstCounted < 0 ? window.sent.length : firstCounted);
  }

  /** A request may pass again once enough of the window's requests have aged out to go below the limit. */
  private describeRolling(window: RollingWindow, now: number, allowed: boolean): RateLimitDecision {
    const limit = this.limitOf(window, now);
    const oldest = window.sent[0] ?? now;
    const mustAgeOut = window.sent.length - limit;
    const passAgainAt = mustAgeOut < 0 ? now : (window.sent[mustAgeOut] ?? now) + this.windowSeconds;
    return {
      allowed,
      limit,
      windowSeconds: this.windowSeconds,
      resetAt: Math.ceil(oldest + this.windowSeconds),
      retryAfterSeconds: Math.max(1, Math.ceil(passAgainAt - now)),
    };
  }
}
