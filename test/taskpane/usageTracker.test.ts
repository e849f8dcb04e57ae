import { ApiError } from "../../src/api/errors";
import type { DataLayerStats } from "../../src/data/dataLayer";
import { BulkExportQuotaGuard, type QuotaStanding } from "../../src/data/quotaGuard";
import { describeError } from "../../src/taskpane/messages";
import { UsageTracker } from "../../src/taskpane/usageTracker";

interface StatsOverrides {
  rateLimitWaits?: number;
  usage?: Record<number, number>;
  limit?: DataLayerStats["requests"]["limit"];
  rateLimitedUntilMs?: number;
  pacedWaits?: number;
  waiting?: number;
}

const DOCUMENTED = { limit: 100, windowMs: 300_000, burst: 50, learned: false };
const DOCUMENTED_LINE =
  "Requests are paced at 100 requests per 5 minutes (the documented limit; the service has not announced one).";

function stats(overrides: StatsOverrides = {}): DataLayerStats {
  return {
    cache: {
      persistent: true,
      entries: 0,
      bytes: 0,
      memoryEntries: 0,
      memoryBytes: 0,
      byKind: {},
      hits: 0,
      misses: 0,
      hitRate: 0,
      staleServed: 0,
    } as DataLayerStats["cache"],
    requests: {
      attempts: 3,
      retries: 0,
      rateLimitWaits: overrides.rateLimitWaits ?? 0,
      pacedWaits: overrides.pacedWaits ?? 0,
      gatePauses: 0,
      coalesced: 0,
      limit: overrides.limit ?? DOCUMENTED,
      rateLimitedUntilMs: overrides.rateLimitedUntilMs,
      pacing: {
        waiting: overrides.waiting ?? 0,
        onTheWire: 0,
        done: 0,
        total: overrides.waiting ?? 0,
        timeLeftMs: 0,
        pausedForMs: 0,
        limit: overrides.limit ?? DOCUMENTED,
      },
    },
    bulkExportUsage: overrides.usage ?? {},
  };
}

/** The guard's standing of account 100 after `spent` properties, with the quota the service named, if any. */
function standing(spent: number, named?: { limit: number; usage: number }): QuotaStanding {
  const guard = new BulkExportQuotaGuard({}, () => 0);
  if (named)
    guard.learn(
      100,
      new ApiError("quota_exceeded", "quota", { quotaLimit: named.limit, quotaUsage: named.usage }),
    );
  guard.spent(100, spent);
  return guard.standing(100);
}

describe("the Usage section", () => {
  it("shows the account's quota limit, used and left, and that no rate limit was met", () => {
    const tracker = new UsageTracker(() => 0);
    expect(tracker.lines(stats({ usage: { 100: 42, 102: 7 } }), 100, standing(42))).toEqual([
      "Bulk export quota of account 100: limit 5,000 properties (assumed: the service names it only when the quota runs out), at least 42 used (pulls since sign-in), at most 4,958 left.",
      DOCUMENTED_LINE,
      "Rate limit: no waits so far.",
    ]);
    // Once the service named the limit and usage, used and left are its figures, moved by what was spent since.
    expect(tracker.lines(stats(), 100, standing(250, { limit: 20_000, usage: 19_000 }))[0]).toBe(
      "Bulk export quota of account 100: limit 20,000 properties (as the service named it), 19,250 used, 750 left.",
    );
  });

  it("never says 'no waits' while requests wait for their turn, nor after they did", () => {
    const tracker = new UsageTracker(() => 0);
    const line = (overrides: StatsOverrides) =>
      tracker.lines(stats(overrides), 100, standing(0)).find((text) => text.startsWith("Rate limit:"));
    expect(line({ waiting: 25, pacedWaits: 3 })).toBe(
      "Rate limit: 25 requests are waiting for their turn at the service's pace (progress above).",
    );
    expect(line({ pacedWaits: 30 })).toBe(
      "Rate limit: requests waited 30 times for their turn at the service's pace.",
    );
    expect(line({ pacedWaits: 30, rateLimitWaits: 1 })).toBe(
      "Rate limit: requests waited 30 times for their turn at the service's pace and 1 time after the service refused one.",
    );
  });

  it("shows the last rate limit and quota answers the pane met, and how long ago", () => {
    let now = 1_000_000;
    const tracker = new UsageTracker(() => now);
    tracker.note(new ApiError("rate_limited", "limit", { retryAfterSeconds: 41.2 }));
    tracker.note(new ApiError("quota_exceeded", "quota", { quotaLimit: 500, quotaUsage: 500 }));
    tracker.note(new Error("not the service's"));
    now += 90_000;

    expect(tracker.lines(stats({ rateLimitWaits: 2 }), 100, standing(0))).toEqual([
      "Bulk export quota of account 100: limit 5,000 properties (assumed: the service names it only when the quota runs out), at least 0 used (pulls since sign-in), at most 5,000 left.",
      DOCUMENTED_LINE,
      "Rate limit: requests waited 2 times after the service refused one.",
      "The quota was used up (500 of 500) 2 min ago.",
      "The request limit was last reached 2 min ago; the service asked to wait 42 s.",
    ]);
  });
  it("names the limit the service announced, and until when every request is refused", () => {
    const now = new Date(2026, 10, 23, 9, 15, 20).getTime();
    const tracker = new UsageTracker(() => now);
    const until = new Date(2026, 10, 23, 9, 20, 30).getTime();
    const lines = tracker.lines(
      stats({
        rateLimitWaits: 1,
        limit: { limit: 50, windowMs: 300_000, burst: 25, learned: true },
        rateLimitedUntilMs: until,
      }),
      100,
      standing(0),
    );
    expect(lines).toContain(
      "Requests are paced at 50 requests per 5 minutes (the limit the service announced).",
    );
    // Rounded up to the minute: trying again at the time shown is never too early.
    expect(lines).toContain("Rate limited until 09:21: the service refuses requests until then.");
  });
});

describe("error messages", () => {
  it("say what happened and what to do next", () => {
    expect(
      describeError(
        new ApiError("rate_limited", "The service's request limit was reached.", { retryAfterSeconds: 30 }),
      ),
    ).toBe("The service's request limit was reached. Wait 30 seconds, then try again.");
    // Whole seconds, rounded up, and never less than one: Retry-After: 0 still means a moment's wait.
    const waitWords = (retryAfterSeconds: number) =>
      describeError(new ApiError("rate_limited", "Limit reached.", { retryAfterSeconds }));
    expect([0, 0.4, 1, 1.2].map(waitWords)).toEqual([
      "Limit reached. Wait 1 second, then try again.",
      "Limit reached. Wait 1 second, then try again.",
      "Limit reached. Wait 1 second, then try again.",
      "Limit reached. Wait 2 seconds, then try again.",
    ]);
    expect(
      describeError(
        new ApiError("quota_exceeded", "The account's bulk export quota is used up.", {
          quotaLimit: 10,
          quotaUsage: 10,
        }),
      ),
    ).toMatch(/used up\. .*\(10 of 10 properties used\): ask your account manager\./);
    expect(describeError(new ApiError("forbidden", "Not included in your plan"))).toBe(
      "Not included in your plan. Choose another account, or ask your administrator for access.",
    );
    expect(describeError(new DOMException("stop", "AbortError"))).toBe("Cancelled.");
    expect(
      describeError(Object.assign(new Error("The sheet is busy"), { code: "InvalidOperation" })),
    ).toMatch(/^The sheet is busy\. Check that the workbook is not being edited/);
    expect(describeError("weird")).toBe("Something went wrong. Try again.");
  });
});
