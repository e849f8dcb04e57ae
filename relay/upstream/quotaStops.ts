import type { OperationRequest } from "../../src/api/operations";
import { retryAfterSeconds } from "../../src/api/rateLimitHeaders";
import { DEFAULT_RETRY } from "../../src/data/retryPolicy";

/** The account whose bulk export quota a call spends, when the table says its answers count toward it. */
export function quotaBoundAccount(sent: OperationRequest | undefined): number | undefined {
  return sent?.operation.spendsPropertyQuota ? sent.accountId : undefined;
}

/** Whether a 429's body is the account quota answer (`{error, quota_limit, quota_usage}`), not the rate limit. */
export function isQuotaAnswer(body: Buffer): boolean {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    return (
      typeof parsed === "object" &&
      parsed !== null &&
      typeof (parsed as { quota_limit?: unknown }).quota_limit === "number"
    );
  } catch {
    return false;
  }
}

/** How long a 429 asks to wait: Retry-After (seconds or a date), else X-RateLimit-Reset, else the add-in's 330 s. */
export function rateLimitWaitMs(headers: Headers, nowMs: number): number {
  const seconds = retryAfterSeconds(headers, nowMs);
  return seconds === undefined ? DEFAULT_RETRY.defaultRateLimitWaitMs : Math.ceil(seconds * 1000);
}

interface Stop {
  untilMs: number;
  headers: Headers;
  body: Buffer;
}

/**
 * Accounts whose quota the service said is used up. Their quota-bound calls are answered with the service's
 * own quota answer until the wait is over, without a request; everyone else's calls, and this account's
 * other calls, go on as before (the quota is the account's, not the team's rate limit).
 */
export class QuotaStops {
  private readonly stops = new Map<number, Stop>();

  constructor(private readonly now: () => number) {}

  stop(accountId: number, response: Response, body: Buffer): void {
    const untilMs = this.now() + rateLimitWaitMs(response.headers, this.now());
    const headers = new Headers({
      "content-type": response.headers.get("content-type") ?? "application/json",
    });
    this.stops.set(accountId, { untilMs, headers, body });
  }

  /** The quota answer to give instead of sending, while the account's stop lasts. */
  answer(accountId: number | undefined): Response | undefined {
    if (accountId === undefined) return undefined;
    const stop = this.stops.get(accountId);
    if (!stop) return undefined;
    const leftMs = stop.untilMs - this.now();
    if (leftMs <= 0) {
      this.stops.delete(accountId);
      return undefined;
    }
    const headers = new Headers(stop.headers);
    headers.set("retry-after", String(Math.ceil(leftMs / 1000)));
    return new Response(new Uint8Array(stop.body), { status: 429, headers });
  }
}
