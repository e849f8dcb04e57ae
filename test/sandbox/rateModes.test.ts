import { RateLimiter } from "../../sandbox/auth/rateLimiter";
import { parseArguments } from "../../sandbox/cli/parseArguments";
import { SandboxClock } from "../../sandbox/clock";
import { FIXED_NOW, startTestSandbox } from "./support/fixtures";

/** A limiter of 10 requests per 60 s on a clock the test moves. */
function limiter(mode: "fixed" | "rolling") {
  const clock = new SandboxClock(FIXED_NOW);
  const limits = new RateLimiter(clock, 10, 60, mode);
  const at = (seconds: number) => clock.set(Date.parse(FIXED_NOW) + seconds * 1000);
  return { limits, at };
}

describe("--rate-mode rolling", () => {
  it("counts the last window, not a window that starts afresh: no double burst at a window's edge", () => {
    const statuses = (mode: "fixed" | "rolling") => {
      const { limits, at } = limiter(mode);
      const allowed: boolean[] = [];
      // 6 at once (not a burst: at most 60 % of the limit in a tenth of the window), 4 more later, then 10 just
      // after the first window would have ended.
      at(0);
      for (let n = 0; n < 6; n++) allowed.push(limits.consume("t").allowed);
      at(30);
      for (let n = 0; n < 4; n++) allowed.push(limits.consume("t").allowed);
      at(61);
      for (let n = 0; n < 10; n++) allowed.push(limits.consume("t").allowed);
      return allowed
        .slice(10)
        .map((ok) => (ok ? "ok" : "429"))
        .join(" ");
    };
    // A fixed window starts afresh at 60 s: 20 requests within 31 s pass.
    expect(statuses("fixed")).toBe("ok ok ok ok ok ok ok ok ok ok");
    // At 61 s the six of 0 s have aged out, the four of 30 s still count: six more fit.
    expect(statuses("rolling")).toBe("ok ok ok ok ok ok 429 429 429 429");
    const { limits, at } = limiter("rolling");
    at(0);
    for (let n = 0; n < 6; n++) limits.consume("t");
    at(30);
    for (let n = 0; n < 4; n++) limits.consume("t");
    at(59);
    const refused = limits.consume("t");
    // The limit holds until the oldest request leaves the window, at 60 s.
    expect(refused).toMatchObject({
      allowed: false,
      limit: 10,
      retryAfterSeconds: 1,
      resetAt: Date.parse(FIXED_NOW) / 1000 + 60,
    });
  });

  it("halves the limit for a window after a burst, and says so in its headers' figures", () => {
    const { limits, at } = limiter("rolling");
    at(0);
    const first = Array.from({ length: 7 }, () => limits.consume("t").allowed);
    expect(first).toEqual([true, true, true, true, true, true, true]); // the 7th makes the burst
    const refused = limits.consume("t");
    expect(refused).toMatchObject({ allowed: false, limit: 5, windowSeconds: 60 });
    // 8 counted (the refused one too) against 5: the 4th oldest must leave the window, at 60 s.
    expect(refused.retryAfterSeconds).toBe(60);
    at(30);
    expect(limits.consume("t")).toMatchObject({ allowed: false, limit: 5 });
    // Another token is not affected.
    expect(limits.consume("other")).toMatchObject({ allowed: true, limit: 10 });
  });

  it("answers 429 over HTTP with the tightened limit in X-RateLimit-Limit", async () => {
    const t = await startTestSandbox({ rateLimit: 10, rateLimitWindowSeconds: 60, rateLimitMode: "rolling" });
    try {
      const token = await t.client.token("demo-pro");
      const statuses: number[] = [];
      for (let n = 0; n < 8; n++)
        statuses.push((await t.client.request("GET", "/v1/accounts", { token })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 429]);
      const limited = await t.client.request("GET", "/v1/accounts", { token });
      expect(limited.headers.get("x-ratelimit-limit")).toBe("5");
      expect(limited.headers.get("x-ratelimit-reset-after")).toBe("60");
      expect(limited.headers.get("retry-after")).toBe("60");
    } finally {
      await t.sandbox.close();
    }
  });

  it("is chosen on the command line, next to the fixed default", () => {
    expect(parseArguments(["--rate-mode", "rolling"]).options.rateLimitMode).toBe("rolling");
    expect(parseArguments([]).options.rateLimitMode).toBeUndefined();
    expect(() => parseArguments(["--rate-mode", "sliding"])).toThrow(
      "--rate-mode must be one of fixed, rolling",
    );
    expect(parseArguments(["--429-headers", "http-date", "--no-total-pages"]).options.faults).toMatchObject({
      rateLimitHeaders: "http-date",
      omitTotalPages: true,
    });
  });
});
