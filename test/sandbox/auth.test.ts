import { accountsForClient, DEMO_CLIENTS, SHARED_ACCOUNT_ID } from "../../sandbox/data/clients";
import { buildSandbox, startSandbox, type RunningSandbox } from "../../sandbox/server";
import { SandboxClient } from "./support/sandboxClient";

let sandbox: RunningSandbox;
let client: SandboxClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: "2026-03-15T12:00:00Z" });
  client = new SandboxClient(sandbox);
});

afterAll(async () => {
  await sandbox.close();
});

describe("POST /oauth/token", () => {
  it("issues a bearer token for a form body", async () => {
    const response = await client.request("POST", "/oauth/token", {
      rawBody: "grant_type=client_credentials&client_id=demo-pro&client_secret=sandbox-secret-pro",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: expect.any(String),
      token_type: "Bearer",
      expires_in: 7200,
      scope: "api",
      created_at: Date.parse("2026-03-15T12:00:00Z") / 1000,
    });
  });

  it("issues a bearer token for a JSON body", async () => {
    const response = await client.request("POST", "/oauth/token", {
      json: {
        grant_type: "client_credentials",
        client_id: "demo-base",
        client_secret: "sandbox-secret-base",
      },
    });
    expect(response.status).toBe(200);
    expect((response.body as { access_token: string }).access_token.length).toBeGreaterThan(20);
  });

  it("rejects a wrong secret with 401 invalid_client and does not echo the secret", async () => {
    const response = await client.request("POST", "/oauth/token", {
      json: { grant_type: "client_credentials", client_id: "demo-pro", client_secret: "guess-123" },
    });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: "invalid_client", message: expect.any(String) });
    expect(response.text).not.toContain("guess-123");
  });

  it("rejects an unknown client with 401", async () => {
    const response = await client.request("POST", "/oauth/token", {
      json: { grant_type: "client_credentials", client_id: "nobody", client_secret: "x" },
    });
    expect(response.status).toBe(401);
  });

  it("answers 400 for a missing field, naming it", async () => {
    const response = await client.request("POST", "/oauth/token", {
      json: { grant_type: "client_credentials", client_id: "demo-pro" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: "invalid_request", message: "client_secret is required" });
  });

  it("answers 400 unsupported_grant_type for another grant", async () => {
    const response = await client.request("POST", "/oauth/token", {
      json: { grant_type: "password", client_id: "demo-pro", client_secret: "sandbox-secret-pro" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: "unsupported_grant_type" });
  });

  it("answers 400 for malformed JSON", async () => {
    const response = await client.request("POST", "/oauth/token", { rawBody: '{"grant_type":' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: "invalid_request", message: expect.any(String) });
  });
});

describe("GET /v1/accounts", () => {
  it.each(DEMO_CLIENTS.map((demo) => demo.clientId))("lists exactly the accounts of %s", async (clientId) => {
    const response = await client.as(clientId, "GET", "/v1/accounts");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: accountsForClient(clientId),
      pagination: { current_page: 1, total_pages: 1, total_count: 2, per_page: 50 },
    });
  });

  it("gives every demo client two accounts, one of them shared", () => {
    for (const demo of DEMO_CLIENTS) {
      const ids = accountsForClient(demo.clientId).map((account) => account.id);
      expect(ids).toHaveLength(2);
      expect(ids).toContain(SHARED_ACCOUNT_ID);
    }
  });

  it("pages with page and per_page", async () => {
    const response = await client.as("demo-pro", "GET", "/v1/accounts?page=2&per_page=1");
    expect(response.body).toEqual({
      data: [accountsForClient("demo-pro")[1]],
      pagination: { current_page: 2, total_pages: 2, total_count: 2, per_page: 1 },
    });
  });

  it("rejects per_page above 100", async () => {
    const response = await client.as("demo-pro", "GET", "/v1/accounts?per_page=101");
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: "per_page must be <= 100" });
  });

  it("answers 401 Unauthorized without a token and with an unknown token", async () => {
    for (const token of [undefined, "not-a-token"]) {
      const response = await client.request("GET", "/v1/accounts", { token });
      expect(response.status).toBe(401);
      // The live service's words.
      expect(response.body).toEqual({ error: "Unauthorized", message: "Missing or invalid bearer token" });
    }
  });
});

describe("CORS", () => {
  it("answers a preflight from the add-in origin and exposes the rate-limit headers", async () => {
    const response = await fetch(`${sandbox.url}/v1/accounts`, {
      method: "OPTIONS",
      headers: {
        origin: "https://localhost:3000",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://localhost:3000");
    expect(response.headers.get("access-control-allow-headers")).toMatch(/authorization/i);
    const exposed = (response.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    for (const header of [
      "x-ratelimit-limit",
      "x-ratelimit-reset-after",
      "x-ratelimit-reset",
      "retry-after",
    ]) {
      expect(exposed).toContain(header);
    }
  });

  it("does not allow other origins", async () => {
    const response = await fetch(`${sandbox.url}/v1/accounts`, {
      headers: { origin: "https://evil.example" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("buildSandbox", () => {
  it("builds an app that serves the contract once it listens", async () => {
    const app = await buildSandbox({ seed: 3, propertyCount: 100 });
    try {
      const url = await app.listen({ host: "127.0.0.1", port: 0 });
      const response = await fetch(`${url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          grant_type: "client_credentials",
          client_id: "demo-pro",
          client_secret: "sandbox-secret-pro",
        }),
      });
      expect(response.status).toBe(200);
      expect(app.sandbox.dataset().properties).toHaveLength(100);
    } finally {
      await app.close();
    }
  });
});
