import "fake-indexeddb/auto";
import { requestKey } from "../../src/data/cacheKey";
import { DataLayer } from "../../src/data/dataLayer";
import { IndexedDbStore } from "../../src/data/persistentStore";
import { ResponseCache } from "../../src/data/responseCache";
import { Session } from "../../src/session/session";
import { accountsForClient } from "../../sandbox/data/clients";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { QUICK_RETRY, UNPACED } from "./support/dataHarness";
import { HeldValuesStore } from "./support/heldValuesStore";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startInProcessSandbox({ propertyCount: 2000 });
});

afterAll(async () => {
  await sandbox.close();
});

const config = () => ({ serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` });
const signInAs = (session: Session, clientId: string) =>
  session.signIn(config(), { kind: "client", clientId, clientSecret: `sandbox-secret-${clientId.slice(5)}` });

describe("the session's data layer", () => {
  it("is built once per sign-in and never serves one client's cached answers to another", async () => {
    // One database for every sign-in, as in the add-in: only the keys keep the clients apart.
    const session = new Session(undefined, {
      databaseName: "session-test",
      pacing: UNPACED,
      retry: QUICK_RETRY,
    });
    const base = await signInAs(session, "demo-base");
    expect(base.data).toBeInstanceOf(DataLayer);
    expect((await base.data.accounts()).value).toEqual(accountsForClient("demo-base"));

    const pro = await signInAs(session, "demo-pro");
    expect(pro.data).not.toBe(base.data);
    expect(session.requireSignedIn().data).toBe(pro.data);
    const proAccounts = await pro.data.accounts();
    expect(proAccounts.value).toEqual(accountsForClient("demo-pro"));
    expect(proAccounts.source).toBe("cache"); // stored by the sign-in itself, which read them fresh

    const again = await signInAs(
      new Session(undefined, { databaseName: "session-test", pacing: UNPACED }),
      "demo-base",
    );
    const before = sandbox.counters.get("/v1/accounts");
    expect(await again.data.accounts()).toMatchObject({
      source: "cache",
      value: accountsForClient("demo-base"),
    });
    expect(sandbox.counters.get("/v1/accounts")).toBe(before);
  });

  it("is signed in only once the stored answers are in memory", async () => {
    const database = "session-preload-test";
    const stored = requestKey({
      kind: "narrative",
      caller: "demo-pro",
      accountId: 1,
      endpoint: "/markets/narratives",
      params: { boundaryId: 1 },
    });
    await new ResponseCache({ store: new IndexedDbStore(database) }).setMany([
      { key: stored, value: "text" },
    ]);
    const store = new HeldValuesStore(database);
    const cache = new ResponseCache({ store, preload: true });
    const session = new Session(undefined, { cache, pacing: UNPACED, retry: QUICK_RETRY });
    let signedIn = false;
    const signingIn = signInAs(session, "demo-pro").then(() => (signedIn = true));
    // The sign-in's own request has been answered (its accounts are cached) while the stored values are held.
    await store.read;
    while (
      !cache.peekFresh(
        requestKey({
          kind: "accounts",
          caller: "demo-pro",
          accountId: undefined,
          endpoint: "/accounts",
          params: {},
        }),
      )
    )
      await new Promise((resolve) => setImmediate(resolve));
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(signedIn).toBe(false);
    store.release();
    await signingIn;
    expect(cache.peekFresh(stored)?.value).toBe("text");
  });
});
