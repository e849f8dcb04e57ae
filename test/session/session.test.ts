/**
 * The session's rule for a second sign-in, for every kind of credentials: another person's sign-in ends the first
 * (their cache goes), the same person's keeps it. A pasted token or a relay key shows the same identity for
 * everyone ("access token", "team relay key"), so only the owner (the secret's hash) tells people apart. Relay
 * keys are exchanged for sandbox tokens on the way out, so the sandbox answers as the relay would.
 */
import "fake-indexeddb/auto";
import { ApiError } from "../../src/api/errors";
import type { Credentials } from "../../src/api/tokens";
import { learntQuotaKept } from "../../src/data/quotaMemory";
import { Session, type SignedIn } from "../../src/session/session";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { QUICK_RETRY, UNPACED } from "../data/support/dataHarness";

let sandbox: RunningSandbox;
let databaseCounter = 0;
/** Relay key -> the sandbox token it stands for. */
const relayTokens = new Map<string, string>();

beforeAll(async () => {
  // Today on the sandbox's clock: a pasted token carries its expiry, which the add-in reads on the real clock.
  sandbox = await startInProcessSandbox({ propertyCount: 200, now: new Date().toISOString() });
  relayTokens.set("relay-key-ann", sandbox.context.tokens.issueManualToken("demo-pro").accessToken);
  relayTokens.set("relay-key-bob", sandbox.context.tokens.issueManualToken("demo-pro").accessToken);
});

afterAll(() => sandbox.close());

/** What the team relay does with a personal key: sends the request on with the team's token. */
const asRelay: typeof fetch = (input, init) => {
  const request = new Request(input, init);
  const key = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
  const token = relayTokens.get(key);
  if (token) request.headers.set("authorization", `Bearer ${token}`);
  return fetch(request);
};

function newSession(databaseName = `session-owner-${++databaseCounter}`) {
  const session = new Session(asRelay, { databaseName, pacing: UNPACED, retry: QUICK_RETRY });
  const heard: (SignedIn | undefined)[] = [];
  session.onChange((state) => heard.push(state));
  const signIn = (credentials: Credentials) =>
    session.signIn({ serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` }, credentials);
  return { session, heard, signIn };
}

const manual = (clientId: string): Credentials => ({
  kind: "manual",
  accessToken: sandbox.context.tokens.issueManualToken(clientId).accessToken,
});

describe("a second sign-in in one session", () => {
  it("ends the first when a second pasted token is another person's, and keeps it for the same token", async () => {
    const { session, heard, signIn } = newSession();
    const firstToken = manual("demo-pro");
    const first = await signIn(firstToken);
    await signIn(firstToken);
    expect(heard).toEqual([first, expect.objectContaining({ owner: first.owner })]);
    expect(heard).not.toContain(undefined);

    const second = await signIn(manual("demo-proplus"));
    expect(second.identity).toBe(first.identity);
    expect(second.owner).not.toBe(first.owner);
    expect(heard.slice(2)).toEqual([undefined, second]);
    expect(session.current).toBe(second);
  });

  it("ends the first when a second relay key is another person's, and keeps it for the same key", async () => {
    const { session, heard, signIn } = newSession();
    const first = await signIn({ kind: "relay", key: "relay-key-ann" });
    expect(first).toMatchObject({ identity: "team relay key", viaRelay: true });
    await signIn({ kind: "relay", key: "relay-key-ann" });
    expect(heard).not.toContain(undefined);

    const second = await signIn({ kind: "relay", key: "relay-key-bob" });
    expect(second.identity).toBe(first.identity);
    expect(heard.slice(2)).toEqual([undefined, second]);
    expect(session.current).toBe(second);
  });

  it("leaves the first standing when the second person's key or token is refused", async () => {
    const { session, heard, signIn } = newSession();
    const first = await signIn({ kind: "relay", key: "relay-key-ann" });
    await expect(signIn({ kind: "relay", key: "relay-key-nobody" })).rejects.toBeInstanceOf(ApiError);
    expect(session.current).toBe(first);
    expect(heard).toEqual([first]);

    const pasted = newSession();
    const token = await pasted.signIn(manual("demo-pro"));
    await expect(
      pasted.signIn({ kind: "manual", accessToken: "not-a-token-anyone-issued" }),
    ).rejects.toMatchObject({
      kind: "unauthorized",
    });
    expect(pasted.session.current).toBe(token);
    expect(pasted.heard).toEqual([token]);
  });
});

describe("a reloaded sign-in", () => {
  it("tells its listeners of a sign-in whose quota guard already holds the quota kept before the reload", async () => {
    const databaseName = `session-quota-${++databaseCounter}`;
    const credentials: Credentials = { kind: "relay", key: "relay-key-ann" };
    const before = newSession(databaseName);
    const signedIn = await before.signIn(credentials);
    const quotaError = new ApiError("quota_exceeded", "The account's bulk export quota is used up.", {
      quotaLimit: 300,
      quotaUsage: 290,
    });
    signedIn.data.quota.learn(signedIn.accountId, quotaError);
    await learntQuotaKept(signedIn.data);

    // A reload: a new runtime's session over the same database.
    const after = newSession(databaseName);
    let seen: unknown;
    after.session.onChange((state) => {
      seen = state?.data.quota.learntQuota().accounts[state.accountId];
    });
    await after.signIn(credentials);
    expect(seen).toMatchObject({ limit: 300, usage: 290 });
  });
});
