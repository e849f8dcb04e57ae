import { ApiError } from "../api/errors";
import type { DataLayerStats } from "../data/dataLayer";
import type { QuotaStanding } from "../data/quotaGuard";
import { rateLimitedUntil } from "../data/rateLimitedUntil";
import { limitInWords } from "./progressText";

interface RateLimitSeen {
  at: number;
  retryAfterSeconds: number | undefined;
}

interface QuotaSeen {
  at: number;
  limit: number | undefined;
  usage: number | undefined;
}

/**
 * The last rate-limit and quota answers the pane's own requests met. (The data layer counts its rate-limit
 * waits but does not say when the last one was or how long it was; cells' errors never reach the pane.)
 */
export class UsageTracker {
  private rateLimit: RateLimitSeen | undefined;
  private quota: QuotaSeen | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  note(error: unknown): void {
    if (!(error instanceof ApiError)) return;
    if (error.kind === "rate_limited")
      this.rateLimit = { at: this.now(), retryAfterSeconds: error.details.retryAfterSeconds };
    if (error.kind === "quota_exceeded")
      this.quota = { at: this.now(), limit: error.details.quotaLimit, usage: error.details.quotaUsage };
  }

  /**
   * Lines for the Usage section: the account's bulk export quota as the guard knows it (`standing`), the limit in
   * force, rate-limit waits, the last limit met.
   */
  lines(stats: DataLayerStats, accountId: number, standing: QuotaStanding): string[] {
    const { limit, rateLimitedUntilMs } = stats.requests;
    const lines = [
      quotaLine(accountId, standing),
      `Requests are paced at ${limitInWords(limit)} (${limit.learned ? "the limit the service announced" : "the documented limit; the service has not announced one"}).`,
      rateLimitLine(stats.requests),
    ];
    // The same words as the cells' #N/A: every request fails at once until then.
    if (rateLimitedUntilMs !== undefined)
      lines.push(rateLimitedUntil(rateLimitedUntilMs, this.now()).message);
    if (this.quota) {
      const of =
        this.quota.limit === undefined
          ? ""
          : ` (${this.quota.usage ?? this.quota.limit} of ${this.quota.limit})`;
      lines.push(`The quota was used up${of} ${this.ago(this.quota.at)}.`);
    }
    if (this.rateLimit) {
      const wait = this.rateLimit.retryAfterSeconds;
      const until = wait === undefined ? "" : `; the service asked to wait ${Math.ceil(wait)} s`;
      lines.push(`The request limit was last reached ${this.ago(this.rateLimit.at)}${until}.`);
    }
    return lines;
  }

  private ago(at: number): string {
    const seconds = Math.max(0, Math.round((this.now() - at) / 1000));
    if (seconds < 60) return `${seconds} s ago`;
    return `${Math.round(seconds / 60)} min ago`;
  }
}

const whole = (count: number) => count.toLocaleString("en-US");

const LIMIT_FROM: Readonly<Record<QuotaStanding["limitFrom"], string>> = {
  service: "as the service named it",
  setting: "as set",
  assumed: "assumed: the service names it only when the quota runs out",
};

/**
 * The quota's limit, what is used and what is left. The service tells the usage only in its quota error: until
 * then the used figure is what pulls spent since sign-in (at least), and what is left at most the rest.
 */
function quotaLine(accountId: number, standing: QuotaStanding): string {
  const { limit, left, spent } = standing;
  const head = `Bulk export quota of account ${accountId}: limit ${whole(limit)} properties (${LIMIT_FROM[standing.limitFrom]})`;
  if (left !== undefined) return `${head}, ${whole(limit - left)} used, ${whole(left)} left.`;
  return `${head}, at least ${whole(spent)} used (pulls since sign-in), at most ${whole(Math.max(0, limit - spent))} left.`;
}

/**
 * Whether requests wait or have waited for the service's limit: for their turn at the pacing (which keeps
 * under the limit) or after the service refused one. Never "no waits" while requests wait.
 */
function rateLimitLine(requests: DataLayerStats["requests"]): string {
  const { pacing, pacedWaits, rateLimitWaits } = requests;
  if (pacing.waiting > 0)
    return `Rate limit: ${pacing.waiting} ${pacing.waiting === 1 ? "request is" : "requests are"} waiting for their turn at the service's pace (progress above).`;
  if (pacedWaits === 0 && rateLimitWaits === 0) return "Rate limit: no waits so far.";
  const times = (count: number) => `${count} ${count === 1 ? "time" : "times"}`;
  const waits = [
    ...(pacedWaits > 0 ? [`${times(pacedWaits)} for their turn at the service's pace`] : []),
    ...(rateLimitWaits > 0 ? [`${times(rateLimitWaits)} after the service refused one`] : []),
  ];
  return `Rate limit: requests waited ${waits.join(" and ")}.`;
}
