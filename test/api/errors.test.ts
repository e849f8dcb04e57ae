import { ApiError, errorFromFetchFailure, errorFromResponse } from "../../src/api/errors";
import { announcedLimit, parseRetryAfter, retryAfterSeconds } from "../../src/api/rateLimitHeaders";

function response(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers });
}

describe("errorFromResponse", () => {
  it("keeps the service's validation message for a 400", async () => {
    const error = await errorFromResponse(
      response(400, JSON.stringify({ error: "Invalid parameter", message: "start_date must be YYYY-MM-DD" })),
    );
    expect(error.kind).toBe("invalid_input");
    expect(error.message).toBe("Invalid parameter: start_date must be YYYY-MM-DD");
    expect(error.details.status).toBe(400);
  });

  it("says in a 5xx what a relay wrote as a JSON message, never an HTML page", async () => {
    const relay = await errorFromResponse(
      response(
        502,
        JSON.stringify({
          error: "Bad Gateway",
          message: "The service refused the team relay's own client id or secret. Ask your relay admin.",
        }),
      ),
    );
    expect(relay.kind).toBe("server");
    expect(relay.message).toContain("refused the team relay's own client id or secret");
    const page = await errorFromResponse(response(503, "<html><body>Maintenance</body></html>"));
    expect(page.message).toBe("The service had a problem (HTTP 503). Try again later.");
  });

  it("joins an errors array", async () => {
    const error = await errorFromResponse(
      response(400, JSON.stringify({ errors: ["a is wrong", "b is wrong"] })),
    );
    expect(error.message).toBe("a is wrong: b is wrong");
  });

  it("tells a quota 429 from a rate-limit 429", async () => {
    const quota = await errorFromResponse(
      response(
        429,
        JSON.stringify({ error: "Bulk export quota (500) exceeded", quota_limit: 500, quota_usage: 512 }),
      ),
    );
    expect(quota.kind).toBe("quota_exceeded");
    expect(quota.details).toMatchObject({ quotaLimit: 500, quotaUsage: 512 });
    expect(quota.message).toContain("Bulk export quota (500) exceeded");

    const limited = await errorFromResponse(response(429, "Rate limit exceeded", { "Retry-After": "42" }));
    expect(limited.kind).toBe("rate_limited");
    expect(limited.details.retryAfterSeconds).toBe(42);
  });

  it("treats an empty 403 as a plan or permission problem", async () => {
    const error = await errorFromResponse(response(403, ""));
    expect(error.kind).toBe("forbidden");
    expect(error.message).toMatch(/not included in your plan/i);
  });

  it("maps 401, 404, 409 and 5xx", async () => {
    expect((await errorFromResponse(response(401, '{"error":"Unauthorized"}'))).kind).toBe("unauthorized");
    const notFound = await errorFromResponse(
      response(404, '{"error":"Not Found","message":"Job does not exist"}'),
    );
    expect(notFound.kind).toBe("not_found");
    expect(notFound.message).toBe("Not Found: Job does not exist");
    const conflict = await errorFromResponse(
      response(409, '{"error":"Conflict","message":"Job is submitted; results exist once it has succeeded"}'),
    );
    expect(conflict.kind).toBe("not_found");
    expect(conflict.message).toContain("Not available yet");
    expect(conflict.message).toContain("results exist once it has succeeded");
    const server = await errorFromResponse(response(503, "upstream exploded"));
    expect(server.kind).toBe("server");
    expect(server.message).toContain("HTTP 503");
  });
});

describe("retryAfterSeconds", () => {
  it("prefers Retry-After and falls back to the window reset time", () => {
    expect(
      retryAfterSeconds(new Headers({ "Retry-After": "7", "X-RateLimit-Reset": "2000" }), 1_000_000),
    ).toBe(7);
    expect(retryAfterSeconds(new Headers({ "X-RateLimit-Reset": "1030" }), 1_000_000)).toBe(30);
    expect(retryAfterSeconds(new Headers({}))).toBeUndefined();
  });

  it("reads Retry-After as delay-seconds or as any HTTP-date form of RFC 9110, and nothing else", () => {
    const now = Date.parse("2026-11-23T09:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Mon, 23 Nov 2026 09:05:30 GMT", now)).toBe(330);
    expect(parseRetryAfter("Monday, 23-Nov-26 09:01:00 GMT", now)).toBe(60);
    expect(parseRetryAfter("Mon Nov 23 09:00:45 2026", now)).toBe(45);
    expect(parseRetryAfter("Mon, 23 Nov 2026 08:59:00 GMT", now)).toBe(0); // already past: go now
    for (const unusable of ["1.5", "-3", "soon", "2026-11-23T09:05:00Z", "", null]) {
      expect(parseRetryAfter(unusable, now)).toBeUndefined();
    }
    // An unusable Retry-After falls back to the window's reset time.
    expect(
      retryAfterSeconds(new Headers({ "Retry-After": "soon", "X-RateLimit-Reset": "1030" }), 1_000_000),
    ).toBe(30);
  });

  it("reads the limit a response announces", () => {
    expect(
      announcedLimit(new Headers({ "X-RateLimit-Limit": "60", "X-RateLimit-Reset-After": "120" })),
    ).toEqual({
      limit: 60,
      windowSeconds: 120,
    });
    expect(announcedLimit(new Headers({ "X-RateLimit-Limit": "60" }))).toEqual({ limit: 60 });
    expect(announcedLimit(new Headers({ "X-RateLimit-Limit": "0" }))).toBeUndefined();
    expect(announcedLimit(new Headers({ "X-RateLimit-Limit": "lots" }))).toBeUndefined();
  });
});

describe("errorFromFetchFailure", () => {
  it("says offline for a network failure, timeout or cancelled for an aborted signal", () => {
    expect(errorFromFetchFailure(new TypeError("fetch failed")).kind).toBe("offline");
    const timedOut = new AbortController();
    timedOut.abort(new DOMException("timed out", "TimeoutError"));
    expect(errorFromFetchFailure(new Error("aborted"), timedOut.signal).kind).toBe("timeout");
    const cancelled = new AbortController();
    cancelled.abort();
    expect(errorFromFetchFailure(new Error("aborted"), cancelled.signal).kind).toBe("cancelled");
    const own = new ApiError("timeout", "No answer");
    const withReason = new AbortController();
    withReason.abort(own);
    expect(errorFromFetchFailure(new Error("aborted"), withReason.signal)).toBe(own);
  });
});
