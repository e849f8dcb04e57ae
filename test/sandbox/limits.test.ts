import { ACCOUNT, FIXED_NOW, startTestSandbox, type TestSandbox } from "./support/fixtures";

describe("rate limit per token", () => {
  let t: TestSandbox;

  beforeAll(async () => {
    t = await startTestSandbox({ rateLimit: 5, rateLimitWindowSeconds: 60 });
  });

  afterAll(async () => {
    await t.sandbox.close();
  });

  it("answers 429 with the four headers after the limit, per token, and resets with the window", async () => {
    const token = await t.client.token("demo-pro");
    const statuses: number[] = [];
    for (let n = 0; n < 7; n++)
      statuses.push((await t.client.request("GET", "/v1/accounts", { token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);

    const limited = await t.client.request("GET", "/v1/accounts", { token });
    expect(limited.headers.get("content-type")).toMatch(/text\/plain/);
    expect(limited.text).toBe("You have exceeded the rate limit for this API.");
    expect(limited.headers.get("x-ratelimit-limit")).toBe("5");
    expect(limited.headers.get("x-ratelimit-reset-after")).toBe("60");
    expect(Number(limited.headers.get("x-ratelimit-reset"))).toBe(Date.parse(FIXED_NOW) / 1000 + 60);
    expect(limited.headers.get("retry-after")).toBe("60");

    const otherToken = await t.client.token("demo-base");
    expect((await t.client.request("GET", "/v1/accounts", { token: otherToken })).status).toBe(200);

    t.sandbox.clock.advance(45_000);
    expect((await t.client.request("GET", "/v1/accounts", { token })).headers.get("retry-after")).toBe("15");
    t.sandbox.clock.advance(15_000);
    expect((await t.client.request("GET", "/v1/accounts", { token })).status).toBe(200);
  });

  it("defaults to 100 requests per 300 seconds", async () => {
    const defaults = await startTestSandbox();
    try {
      const token = await defaults.client.token("demo-pro");
      for (let n = 0; n < 100; n++)
        expect((await defaults.client.request("GET", "/v1/accounts", { token })).status).toBe(200);
      const limited = await defaults.client.request("GET", "/v1/accounts", { token });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("x-ratelimit-limit")).toBe("100");
      expect(limited.headers.get("x-ratelimit-reset-after")).toBe("300");
    } finally {
      await defaults.sandbox.close();
    }
  });
});

describe("bulk export quota per account", () => {
  let t: TestSandbox;

  beforeAll(async () => {
    t = await startTestSandbox({ bulkExportQuota: 5 });
  });

  afterAll(async () => {
    await t.sandbox.close();
  });

  it("counts unique returned properties of bulk details and property search, then answers 429 with quota fields", async () => {
    const details = (ids: string) =>
      `/v1/properties/bulk_details?account_id=${ACCOUNT.pro}&property_ids=${ids}`;
    expect((await t.client.as("demo-pro", "GET", details("100001,100001,100002,99"))).status).toBe(200);
    expect(t.sandbox.context.quota.usageOf(ACCOUNT.pro)).toBe(2);
    const search = await t.client.as("demo-pro", "POST", "/v1/geo_boundaries/properties", {
      json: { account_id: ACCOUNT.pro, per_page: 2 },
    });
    expect(search.status).toBe(200);
    expect(t.sandbox.context.quota.usageOf(ACCOUNT.pro)).toBe(4);

    const refused = await t.client.as("demo-pro", "GET", details("100003,100004"));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: "Bulk export quota (5) exceeded",
      message: expect.any(String),
      quota_limit: 5,
      quota_usage: 4,
    });
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(t.sandbox.context.quota.usageOf(ACCOUNT.pro)).toBe(4);

    expect((await t.client.as("demo-pro", "GET", details("100003"))).status).toBe(200);
    expect(
      (
        await t.client.as(
          "demo-pro",
          "GET",
          `/v1/properties/bulk_details?account_id=${ACCOUNT.shared}&property_ids=100003`,
        )
      ).status,
    ).toBe(200);
  });
});

describe("token lifetime", () => {
  let t: TestSandbox;

  beforeAll(async () => {
    t = await startTestSandbox({ tokenLifetimeSeconds: 60 });
  });

  afterAll(async () => {
    await t.sandbox.close();
  });

  it("expires client-credentials tokens after the configured lifetime", async () => {
    const response = await t.client.request<{ access_token: string; expires_in: number }>(
      "POST",
      "/oauth/token",
      {
        json: {
          grant_type: "client_credentials",
          client_id: "demo-pro",
          client_secret: "sandbox-secret-pro",
        },
      },
    );
    expect(response.body.expires_in).toBe(60);
    const token = response.body.access_token;
    t.sandbox.clock.advance(59_000);
    expect((await t.client.request("GET", "/v1/accounts", { token })).status).toBe(200);
    t.sandbox.clock.advance(1_000);
    const expired = await t.client.request("GET", "/v1/accounts", { token });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ error: "Unauthorized" });
  });

  it("issues manual tokens as JWTs of about 240 characters whose exp is their expiry", () => {
    const manual = t.sandbox.context.tokens.issueManualToken("demo-base");
    const parts = manual.accessToken.split(".");
    expect(parts).toHaveLength(3);
    expect(manual.accessToken.length).toBeGreaterThanOrEqual(220);
    expect(manual.accessToken.length).toBeLessThanOrEqual(260);
    const header = JSON.parse(Buffer.from(parts[0] ?? "", "base64url").toString()) as object;
    const claims = JSON.parse(Buffer.from(parts[1] ?? "", "base64url").toString()) as { exp: number };
    expect(header).toEqual({ alg: "HS256", typ: "JWT" });
    expect(claims.exp).toBe(manual.expiresAt);
    expect(manual.accessToken).not.toContain("sandbox-secret");
  });

  it("keeps manual tokens valid for 30 days", async () => {
    const manual = t.sandbox.context.tokens.issueManualToken("demo-base");
    expect(manual.expiresAt - manual.createdAt).toBe(30 * 24 * 3600);
    t.sandbox.clock.advance(29 * 24 * 3600 * 1000);
    expect((await t.client.request("GET", "/v1/accounts", { token: manual.accessToken })).status).toBe(200);
    t.sandbox.clock.advance(24 * 3600 * 1000);
    expect((await t.client.request("GET", "/v1/accounts", { token: manual.accessToken })).status).toBe(401);
  });
});
