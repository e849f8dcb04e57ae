import { ApiError } from "../../src/api/errors";
import type { DataLayerStats } from "../../src/data/dataLayer";
import { describeError } from "../../src/taskpane/messages";
import { UsageTracker } from "../../src/taskpane/usageTracker";

function stats(overrides: { rateLimitWaits?: number; usage?: Record<number, number> } = {}): DataLayerStats {
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
      gatePauses: 0,
      coalesced: 0,
    },
    bulkExportUsage: overrides.usage ?? {},
  };
}

describe("the Usage section", () => {
  it("shows the account's quota use and that no rate limit was met", () => {
    const tracker = new UsageTracker(() => 0);
    expect(tracker.lines(stats({ usage: { 100: 42, 102: 7 } }), 100)).toEqual([
      "Bulk export quota: 42 properties counted for account 100 since sign-in.",
      "Rate limit: no waits so far.",
    ]);
  });

  it("shows the last rate limit and quota answers the pane met, and how long ago", () => {
    let now = 1_000_000;
    const tracker = new UsageTracker(() => now);
    tracker.note(new ApiError("rate_limited", "limit", { retryAfterSeconds: 41.2 }));
    tracker.note(new ApiError("quota_exceeded", "quota", { quotaLimit: 500, quotaUsage: 500 }));
    tracker.note(new Error("not the service's"));
    now += 90_000;

    expect(tracker.lines(stats({ rateLimitWaits: 2 }), 100)).toEqual([
      "Bulk export quota: 0 properties counted for account 100 since sign-in.",
      "Rate limit: requests waited 2 times for the service's limit.",
      "The quota was used up (500 of 500) 2 min ago.",
      "The request limit was last reached 2 min ago; the service asked to wait 42 s.",
    ]);
  });
});

describe("error messages", () => {
  it("say what happened and what to do next", () => {
    expect(
      describeError(
        new ApiError("rate_limited", "The service's request limit was reached.", { retryAfterSeconds: 30 }),
      ),
    ).toBe("The service's request limit was reached. Wait 30 seconds, then try again.");
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
