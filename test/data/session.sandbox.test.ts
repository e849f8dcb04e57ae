import "fake-indexeddb/auto";
import { DataLayer } from "../../src/data/dataLayer";
import { Session } from "../../src/session/session";
import { accountsForClient } from "../../sandbox/data/clients";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { QUICK_RETRY, UNPACED } from "./support/dataHarness";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, propertyCount: 2000 });
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
});
