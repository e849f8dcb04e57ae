/**
 * The walking skeleton end to end: sign in against the running sandbox over HTTP, then call the
 * RENT.ACCOUNTS implementation and compare its spill with the sandbox's own accounts for that client.
 */
import { SANDBOX_CONFIG } from "../../src/api/config";
import { ApiError } from "../../src/api/errors";
import { accounts } from "../../src/functions/accountFunctions";
import { session } from "../../src/session/session";
import { accountsForClient, DEMO_CLIENTS } from "../../sandbox/data/clients";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { fakeInvocation } from "../support/invocation";

let sandbox: RunningSandbox;
const configFor = (url: string) => ({ serviceUrl: url, tokenUrl: `${url}/oauth/token` });

beforeAll(async () => {
  sandbox = await startInProcessSandbox();
});

afterAll(async () => {
  session.signOut();
  await sandbox.close();
});

describe("RENT.ACCOUNTS", () => {
  it("says 'not signed in' as #N/A before anyone signs in", async () => {
    session.signOut();
    await expect(accounts(fakeInvocation())).rejects.toMatchObject({
      code: "#N/A",
      message: expect.stringContaining("Not signed in"),
    });
  });

  it.each(DEMO_CLIENTS.map((client) => [client.clientId, client] as const))(
    "spills a header and the accounts that %s may act for",
    async (_, client) => {
      await session.signIn(configFor(sandbox.url), {
        kind: "client",
        clientId: client.clientId,
        clientSecret: client.clientSecret,
      });
      const expected = accountsForClient(client.clientId);
      expect(expected.length).toBeGreaterThanOrEqual(2);
      const rows = await accounts(fakeInvocation());
      expect(rows).toEqual([["id", "name"], ...expected.map((account) => [account.id, account.name])]);
    },
  );

  it("uses the first account as the default and lets the pane choose another", async () => {
    const state = await session.signIn(configFor(sandbox.url), {
      kind: "client",
      clientId: "demo-pro",
      clientSecret: "sandbox-secret-pro",
    });
    const ids = accountsForClient("demo-pro").map((account) => account.id);
    expect(state.accountId).toBe(ids[0]);
    session.selectAccount(ids[1] as number);
    expect(session.current?.accountId).toBe(ids[1]);
    expect(() => session.selectAccount(999_999)).toThrow(ApiError);
  });
});

describe("signing in", () => {
  it("refuses a wrong secret with a clear message and keeps the previous sign-in", async () => {
    await session.signIn(configFor(sandbox.url), {
      kind: "client",
      clientId: "demo-base",
      clientSecret: "sandbox-secret-base",
    });
    const attempt = session.signIn(configFor(sandbox.url), {
      kind: "client",
      clientId: "demo-pro",
      clientSecret: "not-the-secret",
    });
    await expect(attempt).rejects.toMatchObject({
      kind: "unauthorized",
      message: "The client id or secret was not accepted. Check both and sign in again.",
    });
    await expect(attempt).rejects.not.toThrow(/not-the-secret/);
    expect(session.current?.identity).toBe("demo-base");
  });

  it("says the service cannot be reached when nothing listens at the URL", async () => {
    const closed = await startInProcessSandbox();
    const url = closed.url;
    await closed.close();
    await expect(
      session.signIn(configFor(url), {
        kind: "client",
        clientId: "demo-pro",
        clientSecret: "sandbox-secret-pro",
      }),
    ).rejects.toMatchObject({ kind: "offline" });
  });

  it("rejects a service URL that is not a URL, naming the field", async () => {
    await expect(
      session.signIn(
        { serviceUrl: "not a url", tokenUrl: SANDBOX_CONFIG.tokenUrl },
        { kind: "client", clientId: "demo-pro", clientSecret: "sandbox-secret-pro" },
      ),
    ).rejects.toThrow(/Service URL is not a URL/);
  });

  it("serves many cells at once with the token it already holds", async () => {
    await session.signIn(configFor(sandbox.url), {
      kind: "client",
      clientId: "demo-pro",
      clientSecret: "sandbox-secret-pro",
    });
    const tokenRequestsBefore = sandbox.counters.get("/oauth/token");
    const results = await Promise.all(Array.from({ length: 20 }, () => accounts(fakeInvocation())));
    for (const rows of results) expect(rows).toHaveLength(accountsForClient("demo-pro").length + 1);
    expect(sandbox.counters.get("/oauth/token")).toBe(tokenRequestsBefore);
  });
});
