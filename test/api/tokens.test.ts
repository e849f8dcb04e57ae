import { ServiceClient } from "../../src/api/client";
import { TokenManager } from "../../src/api/tokens";
import { ACCOUNTS, sendOperation } from "../../src/data/endpoints";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startInProcessSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

/** The first page of the caller's accounts, sent by the client alone (no pacing, no cache, no retries). */
async function firstAccounts(client: ServiceClient): Promise<unknown[]> {
  const answer = await client.call<{ data: unknown[] }>((context) =>
    sendOperation(client.api, ACCOUNTS.operation, context),
  );
  return answer.data;
}

function managerFor(now?: () => number): TokenManager {
  return new TokenManager({
    tokenUrl: `${sandbox.url}/oauth/token`,
    credentials: { kind: "client", clientId: "demo-pro", clientSecret: "sandbox-secret-pro" },
    now,
  });
}

describe("TokenManager", () => {
  it("sends one token request however many callers wait for it", async () => {
    const before = sandbox.counters.get("/oauth/token");
    const tokens = await Promise.all(Array.from({ length: 25 }, () => managerFor().token()));
    expect(new Set(tokens).size).toBe(25); // 25 managers, 25 tokens: the baseline for the next line
    const shared = managerFor();
    const sharedTokens = await Promise.all(Array.from({ length: 25 }, () => shared.token()));
    expect(new Set(sharedTokens).size).toBe(1);
    expect(sandbox.counters.get("/oauth/token") - before).toBe(26);
  });

  it("renews once, shortly before the token expires", async () => {
    let now = 1_000_000;
    const manager = managerFor(() => now);
    const first = await manager.token();
    const before100 = sandbox.counters.get("/oauth/token");
    now += 7100 * 1000; // 100 s left: still good
    expect(await manager.token()).toBe(first);
    expect(sandbox.counters.get("/oauth/token")).toBe(before100);
    now += 50 * 1000; // inside the last minute of the 7200 s lifetime
    const before = sandbox.counters.get("/oauth/token");
    const renewed = await Promise.all(Array.from({ length: 10 }, () => manager.token()));
    expect(sandbox.counters.get("/oauth/token") - before).toBe(1);
    expect(new Set(renewed).size).toBe(1);
    expect(renewed[0]).not.toBe(first);
  });

  it("keeps a token as long as the service's expires_in says, not the usual two hours", async () => {
    const shortLived = await startInProcessSandbox({ tokenLifetimeSeconds: 600 });
    try {
      let now = 1_000_000;
      const manager = new TokenManager({
        tokenUrl: `${shortLived.url}/oauth/token`,
        credentials: { kind: "client", clientId: "demo-pro", clientSecret: "sandbox-secret-pro" },
        now: () => now,
      });
      const first = await manager.token();
      now += 500 * 1000; // 100 s left of its 600
      expect(await manager.token()).toBe(first);
      now += 50 * 1000; // inside its last minute
      expect(await manager.token()).not.toBe(first);
      expect(manager.renewals).toBe(2);
    } finally {
      await shortLived.close();
    }
  });
});

describe("ServiceClient", () => {
  it("renews a revoked token once and retries the request", async () => {
    const manager = managerFor();
    const client = new ServiceClient(
      { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
      manager,
    );
    const token = await manager.token();
    expect(sandbox.context.tokens.revoke({ accessToken: token })).toBe(1);
    const accounts = await firstAccounts(client);
    expect(accounts.length).toBeGreaterThan(0);
    expect(manager.renewals).toBe(2);
  });

  it("renews once and no more when the service refuses the renewed token too", async () => {
    // Tokens that are expired when issued: the service refuses every token, a renewed one too.
    const refusing = await startInProcessSandbox({ tokenLifetimeSeconds: 0 });
    try {
      const manager = new TokenManager({
        tokenUrl: `${refusing.url}/oauth/token`,
        credentials: { kind: "client", clientId: "demo-pro", clientSecret: "sandbox-secret-pro" },
      });
      const client = new ServiceClient(
        { serviceUrl: refusing.url, tokenUrl: `${refusing.url}/oauth/token` },
        manager,
      );
      await expect(firstAccounts(client)).rejects.toMatchObject({ kind: "unauthorized" });
      // A token, a refusal, a new token, a refusal: one renewal, then the call fails.
      expect(refusing.counters.get("/oauth/token")).toBe(2);
      expect(refusing.counters.get("/v1/accounts")).toBe(2);
    } finally {
      await refusing.close();
    }
  });

  it("asks to sign in again when a manual token is refused", async () => {
    const manual = sandbox.context.tokens.issueManualToken("demo-pro");
    const manager = new TokenManager({
      tokenUrl: `${sandbox.url}/oauth/token`,
      credentials: { kind: "manual", accessToken: manual.accessToken },
    });
    const client = new ServiceClient(
      { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
      manager,
    );
    expect((await firstAccounts(client)).length).toBeGreaterThan(0);
    sandbox.context.tokens.revoke({ accessToken: manual.accessToken });
    await expect(firstAccounts(client)).rejects.toMatchObject({
      kind: "unauthorized",
      message: expect.stringMatching(/sign in again/i),
    });
  });

  it("reads a manual JWT's exp: once it has passed, says so without sending a request", async () => {
    const manual = sandbox.context.tokens.issueManualToken("demo-pro");
    // Pasted ten days after it was created: its exp, not the 30 days a token of unknown age gets, decides.
    let now = (manual.createdAt + 10 * 24 * 3600) * 1000;
    const manager = new TokenManager({
      tokenUrl: `${sandbox.url}/oauth/token`,
      credentials: { kind: "manual", accessToken: manual.accessToken },
      now: () => now,
    });
    const client = new ServiceClient(
      { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
      manager,
    );
    expect((await firstAccounts(client)).length).toBeGreaterThan(0);
    now = manual.expiresAt * 1000;
    const before = sandbox.counters.total();
    await expect(firstAccounts(client)).rejects.toMatchObject({ kind: "unauthorized" });
    expect(sandbox.counters.total()).toBe(before);
  });
});
