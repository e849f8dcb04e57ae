import { ACCOUNT, startTestSandbox, type TestSandbox } from "./support/fixtures";

describe("fault injection set at startup", () => {
  it("answers a share of requests with a plain-text 500", async () => {
    const t = await startTestSandbox({
      faults: { latencyMs: 0, errorRate: 0.5, rateLimitBurst: 0, dropRate: 0 },
    });
    try {
      const statuses: number[] = [];
      for (let n = 0; n < 60; n++) statuses.push((await t.client.request("GET", "/v1/accounts")).status);
      const errors = statuses.filter((status) => status === 500).length;
      expect(errors).toBeGreaterThan(10);
      expect(errors).toBeLessThan(50);
      expect(statuses.every((status) => status === 401 || status === 500)).toBe(true);
    } finally {
      await t.sandbox.close();
    }
  });

  it("spares the token endpoint", async () => {
    const t = await startTestSandbox({
      faults: { latencyMs: 0, errorRate: 1, rateLimitBurst: 0, dropRate: 0 },
    });
    try {
      expect((await t.client.token("demo-pro")).length).toBeGreaterThan(20);
      expect((await t.client.as("demo-pro", "GET", "/v1/accounts")).status).toBe(500);
    } finally {
      await t.sandbox.close();
    }
  });

  it("answers a fault instead of the request: no rate limit spent, no other check run", async () => {
    const t = await startTestSandbox({ rateLimit: 3 });
    try {
      const token = await t.client.token("demo-pro");
      t.sandbox.context.faults.update({ errorRate: 1 });
      for (let n = 0; n < 5; n++)
        expect((await t.client.request("GET", "/v1/accounts", { token })).status).toBe(500);
      t.sandbox.context.faults.update({ errorRate: 0, rateLimitBurst: 2 });
      for (let n = 0; n < 2; n++)
        expect((await t.client.request("GET", "/v1/accounts", { token })).status).toBe(429);
      t.sandbox.context.faults.reset();
      const statuses: number[] = [];
      for (let n = 0; n < 4; n++)
        statuses.push((await t.client.request("GET", "/v1/accounts", { token })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await t.sandbox.close();
    }
  });

  it("answers a burst of 429s, then recovers", async () => {
    const t = await startTestSandbox({
      faults: { latencyMs: 0, errorRate: 0, rateLimitBurst: 3, dropRate: 0 },
    });
    try {
      const statuses: number[] = [];
      for (let n = 0; n < 5; n++) statuses.push((await t.client.request("GET", "/v1/accounts")).status);
      expect(statuses).toEqual([429, 429, 429, 401, 401]);
    } finally {
      await t.sandbox.close();
    }
  });

  it("drops connections without an answer", async () => {
    const t = await startTestSandbox({
      faults: { latencyMs: 0, errorRate: 0, rateLimitBurst: 0, dropRate: 1 },
    });
    try {
      await expect(fetch(`${t.sandbox.url}/v1/accounts`)).rejects.toThrow();
    } finally {
      await t.sandbox.close();
    }
  });

  it("sends 403s with an empty body when asked to", async () => {
    const t = await startTestSandbox({ faults: { emptyForbiddenBodies: true } });
    try {
      const response = await t.client.as("demo-base", "GET", "/v1/properties/lookup?account_id=101", {
        outsideContract: true,
      });
      expect(response.status).toBe(403);
      expect(response.text).toBe("");
      expect(response.headers.get("content-type")).toBeNull();
      expect((await t.client.as("demo-base", "GET", "/v1/accounts")).status).toBe(200);
    } finally {
      await t.sandbox.close();
    }
  });

  it("adds latency before answering", async () => {
    const t = await startTestSandbox({
      faults: { latencyMs: 2_000, errorRate: 0, rateLimitBurst: 0, dropRate: 0 },
    });
    try {
      // The client gives up long before the injected delay can have passed.
      await expect(
        fetch(`${t.sandbox.url}/v1/accounts`, { signal: AbortSignal.timeout(100) }),
      ).rejects.toThrow();
    } finally {
      await t.sandbox.close();
    }
  });
});

describe("programmatic control", () => {
  let t: TestSandbox;

  beforeAll(async () => {
    t = await startTestSandbox();
  });

  afterAll(async () => {
    await t.sandbox.close();
  });

  it("counts requests per path, readable and resettable", async () => {
    t.sandbox.counters.reset();
    await t.client.as("demo-pro", "GET", "/v1/accounts");
    await t.client.as("demo-pro", "GET", "/v1/accounts?page=2");
    await t.client.as(
      "demo-pro",
      "GET",
      `/v1/properties/bulk_details?account_id=${ACCOUNT.pro}&property_ids=100001`,
    );
    expect(t.sandbox.counters.get("/v1/accounts")).toBe(2);
    expect(t.sandbox.counters.get("/v1/properties/bulk_details")).toBe(1);
    t.sandbox.counters.reset();
    expect(t.sandbox.counters.snapshot()).toEqual({});
  });

  it("revokes tokens: the next request is 401", async () => {
    t.client.forgetTokens();
    const token = await t.client.token("demo-base");
    expect((await t.client.request("GET", "/v1/accounts", { token })).status).toBe(200);
    expect(t.sandbox.context.tokens.revoke({ clientId: "demo-base" })).toBe(1);
    expect((await t.client.request("GET", "/v1/accounts", { token })).status).toBe(401);
    t.client.forgetTokens();
  });
});

describe("admin routes", () => {
  it("are off unless enabled", async () => {
    const t = await startTestSandbox();
    try {
      expect((await t.client.request("GET", "/admin/faults")).status).toBe(404);
    } finally {
      await t.sandbox.close();
    }
  });

  describe("when enabled", () => {
    let t: TestSandbox;

    beforeAll(async () => {
      t = await startTestSandbox({ admin: true });
    });

    afterAll(async () => {
      await t.sandbox.close();
    });

    it("set and clear faults", async () => {
      const set = await t.client.request("PUT", "/admin/faults", { json: { errorRate: 1 } });
      expect(set.body).toMatchObject({ errorRate: 1 });
      expect((await t.client.request("GET", "/v1/accounts")).status).toBe(500);
      await t.client.request("DELETE", "/admin/faults");
      expect((await t.client.request("GET", "/v1/accounts")).status).toBe(401);
      const invalid = await t.client.request("PUT", "/admin/faults", { json: { errorRate: 2 } });
      expect(invalid.status).toBe(400);
    });

    it("read and reset the request counters, which leave admin calls out", async () => {
      await t.client.request("DELETE", "/admin/counters");
      await t.client.as("demo-pro", "GET", "/v1/accounts");
      const counters = await t.client.request<{ counts: Record<string, number>; total: number }>(
        "GET",
        "/admin/counters",
      );
      expect(counters.body.counts["/v1/accounts"]).toBe(1);
      expect(Object.keys(counters.body.counts).some((path) => path.startsWith("/admin"))).toBe(false);
    });

    it("revoke a token, mint a manual token, move the clock and change limits", async () => {
      t.client.forgetTokens();
      const token = await t.client.token("demo-pro");
      const revoked = await t.client.request("POST", "/admin/tokens/revoke", {
        json: { access_token: token },
      });
      expect(revoked.body).toEqual({ revoked: 1 });
      expect((await t.client.request("GET", "/v1/accounts", { token })).status).toBe(401);
      t.client.forgetTokens();

      const manual = await t.client.request<{ access_token: string; expires_in: number }>(
        "POST",
        "/admin/manual_tokens",
        { json: { client_id: "demo-pro" } },
      );
      expect(manual.body.expires_in).toBe(30 * 24 * 3600);
      expect(
        (await t.client.request("GET", "/v1/accounts", { token: manual.body.access_token })).status,
      ).toBe(200);

      const clock = await t.client.request<{ now: string }>("PUT", "/admin/clock", {
        json: { advance_seconds: 3600 },
      });
      expect(clock.body.now).toBe("2026-03-15T13:00:00.000Z");

      await t.client.request("PUT", "/admin/rate_limit", { json: { limit: 1, window_seconds: 10 } });
      expect(
        (await t.client.request("GET", "/v1/accounts", { token: manual.body.access_token })).status,
      ).toBe(200);
      expect(
        (await t.client.request("GET", "/v1/accounts", { token: manual.body.access_token })).status,
      ).toBe(429);

      await t.client.request("PUT", "/admin/quota", { json: { limit: 0 } });
      const refused = await t.client.as(
        "demo-pro",
        "GET",
        `/v1/properties/bulk_details?account_id=${ACCOUNT.pro}&property_ids=100001`,
      );
      expect(refused.status).toBe(429);
    });
  });
});
