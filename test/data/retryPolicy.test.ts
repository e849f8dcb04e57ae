import { ApiError } from "../../src/api/errors";
import { backoffDelayMs, DEFAULT_RETRY, isTransient, rateLimitWaitMs } from "../../src/data/retryPolicy";

describe("rateLimitWaitMs", () => {
  it("waits what the 429 named, in milliseconds rounded up", () => {
    const named = (seconds: number) =>
      new ApiError("rate_limited", "limited", { retryAfterSeconds: seconds });
    expect(rateLimitWaitMs(DEFAULT_RETRY, named(30))).toBe(30_000);
    expect(rateLimitWaitMs(DEFAULT_RETRY, named(0.0004))).toBe(1);
    expect(rateLimitWaitMs(DEFAULT_RETRY, named(0))).toBe(0);
  });

  it("waits the measured 330 s when the 429 names no time", () => {
    expect(rateLimitWaitMs(DEFAULT_RETRY, new ApiError("rate_limited", "limited"))).toBe(330_000);
  });
});

describe("backoffDelayMs", () => {
  it("bounds the n-th retry's wait by the base doubled n-1 times, up to the ceiling", () => {
    const longest = (retry: number) => backoffDelayMs(DEFAULT_RETRY, retry, () => 1);
    expect([1, 2, 3, 4, 5, 6].map(longest)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000]);
    expect(backoffDelayMs(DEFAULT_RETRY, 3, () => 0)).toBe(0);
    expect(backoffDelayMs(DEFAULT_RETRY, 3, () => 0.5)).toBe(1_000);
  });
});

describe("isTransient", () => {
  it("retries the service's problems, lost connections and timeouts, and nothing a person must fix", () => {
    const kinds = [
      "server",
      "offline",
      "timeout",
      "invalid_input",
      "unauthorized",
      "forbidden",
      "not_found",
    ] as const;
    expect(kinds.filter((kind) => isTransient(new ApiError(kind, kind)))).toEqual([
      "server",
      "offline",
      "timeout",
    ]);
  });
});
