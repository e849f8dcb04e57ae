import { announcedLimit, retryAfterSeconds } from "../../src/api/rateLimitHeaders";

describe("announcedLimit", () => {
  it("does not take X-RateLimit-Reset-After: 0 as the window (the window is closing, not zero long)", () => {
    expect(
      announcedLimit(new Headers({ "X-RateLimit-Limit": "60", "X-RateLimit-Reset-After": "0" })),
    ).toEqual({
      limit: 60,
    });
  });

  it("takes a one-second window and a limit of one", () => {
    expect(announcedLimit(new Headers({ "X-RateLimit-Limit": "1", "X-RateLimit-Reset-After": "1" }))).toEqual(
      {
        limit: 1,
        windowSeconds: 1,
      },
    );
  });

  it("ignores a window that is not a whole number of seconds", () => {
    expect(
      announcedLimit(new Headers({ "X-RateLimit-Limit": "60", "X-RateLimit-Reset-After": "1.5" })),
    ).toEqual({ limit: 60 });
  });
});

describe("retryAfterSeconds", () => {
  it("falls back to X-RateLimit-Reset (epoch seconds) when Retry-After is absent, never below zero", () => {
    const now = 1_700_000_000_000;
    expect(retryAfterSeconds(new Headers({ "X-RateLimit-Reset": "1700000030" }), now)).toBe(30);
    expect(retryAfterSeconds(new Headers({ "X-RateLimit-Reset": "1699999990" }), now)).toBe(0);
  });

  it("prefers Retry-After over the reset time, and takes Retry-After: 0", () => {
    const now = 1_700_000_000_000;
    expect(
      retryAfterSeconds(new Headers({ "Retry-After": "0", "X-RateLimit-Reset": "1700000030" }), now),
    ).toBe(0);
  });
});
