import { errorFromStatus } from "../../src/api/errors";

describe("errorFromStatus", () => {
  it("takes a 422 as invalid input with the service's words, as it takes a 400", () => {
    for (const status of [400, 422]) {
      const error = errorFromStatus(
        status,
        new Headers(),
        JSON.stringify({ message: "bedrooms must be 0 to 5" }),
      );
      expect(error.kind).toBe("invalid_input");
      expect(error.message).toBe("bedrooms must be 0 to 5");
      expect(error.details.status).toBe(status);
    }
    expect(errorFromStatus(422, new Headers(), "").message).toBe(
      "The service rejected the request as invalid.",
    );
  });

  it("takes a 409 as not available yet and a 404 as not found", () => {
    expect(errorFromStatus(409, new Headers(), "").kind).toBe("not_found");
    expect(errorFromStatus(404, new Headers(), "").kind).toBe("not_found");
  });

  it("takes a 500 as the service's problem and a 418 as an unexpected answer", () => {
    expect(errorFromStatus(500, new Headers(), "").message).toBe(
      "The service had a problem (HTTP 500). Try again later.",
    );
    expect(errorFromStatus(499, new Headers(), "").message).toBe(
      "Unexpected answer from the service (HTTP 499).",
    );
  });

  it("takes a 429 with a quota in its body as the export quota, without as the request limit", () => {
    const quota = errorFromStatus(429, new Headers(), JSON.stringify({ quota_limit: 10, quota_usage: 10 }));
    expect(quota.kind).toBe("quota_exceeded");
    expect(quota.details).toMatchObject({ quotaLimit: 10, quotaUsage: 10 });
    expect(errorFromStatus(429, new Headers({ "Retry-After": "7" }), "{}").details.retryAfterSeconds).toBe(7);
    expect(errorFromStatus(429, new Headers(), "{}").kind).toBe("rate_limited");
  });
});
