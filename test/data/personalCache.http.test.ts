import { FLOOR_PLANS, MARKET_SURVEY, UNITS } from "../../src/data/endpoints";
/**
 * The cache of a sign-in belongs to one person on a shared computer: its keys name who signed in (a client id,
 * or the hash of a personal relay key or a pasted token, never the secret) and the account a read acts for,
 * and sign-out removes it. The next person asks the service (counted where the request arrives: the sandbox,
 * or the relay) and never sees the first person's answers.
 */
import "fake-indexeddb/auto";
import { relayServiceUrl } from "../../relay/options";
import { SHARED_ACCOUNT_ID } from "../../sandbox/data/clients";
import { compSetsOf } from "../../sandbox/data/compSets";
import type { RunningSandbox } from "../../sandbox/server";
import type { Credentials } from "../../src/api/tokens";
import type { DataLayer } from "../../src/data/dataLayer";
import { IndexedDbStore } from "../../src/data/persistentStore";
import { Session } from "../../src/session/session";
import { startTestRelay, startTestSandbox, type TestRelay } from "../relay/support/relayHarness";
import { QUICK_RETRY, UNPACED } from "./support/dataHarness";

let sandbox: RunningSandbox;
let relay: TestRelay;
/** Requests that reached the relay, by path: every request of a relay sign-in goes there. */
const atRelay = new Map<string, number>();
let compSetId: number;
let databaseCounter = 0;

/** What the add-in sends to the relay, counted as it arrives there (the relay answers some from its own cache). */
const relayFetch: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  atRelay.set(url.pathname, (atRelay.get(url.pathname) ?? 0) + 1);
  return fetch(input, init);
};

beforeAll(async () => {
  sandbox = await startTestSandbox();
  relay = await startTestRelay(sandbox);
  const shared = compSetsOf(sandbox.dataset()).find((set) => set.accountId === SHARED_ACCOUNT_ID);
  if (!shared) throw new Error("The sandbox has no comp set of the shared account.");
  compSetId = shared.id;
});

afterAll(async () => {
  await relay.close();
  await sandbox.close();
});

/** One computer: every session over the same cache database, as the add-in's sessions are. */
function computer() {
  databaseCounter += 1;
  const databaseName = `personal-cache-${databaseCounter}`;
  const session = (fetchImpl?: typeof fetch) =>
    new Session(fetchImpl, { databaseName, pacing: UNPACED, retry: QUICK_RETRY });
  return { databaseName, session };
}

const direct = () => ({ serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` });
const throughRelay = () => {
  const serviceUrl = relayServiceUrl(relay.url);
  return { serviceUrl, tokenUrl: `${serviceUrl}/oauth/token` };
};
const client = (clientId: string): Credentials => ({
  kind: "client",
  clientId,
  clientSecret: `sandbox-secret-${clientId.slice(5)}`,
});

/** As the sandbox counts them: by route. */
const unitsRoute = "/v1/comp_sets/:comp_set_id/units";
const readUnits = (data: DataLayer, accountId = SHARED_ACCOUNT_ID) =>
  data.read(UNITS, { compSetId: compSetId, filters: {} }, { accountId });

async function storedKeys(databaseName: string): Promise<string[]> {
  return [...(await new IndexedDbStore(databaseName).allMeta()).keys()];
}

describe("a sign-in's cache belongs to one person", () => {
  it("is removed at sign-out: the next person's read of the same comp set goes to the service", async () => {
    const { databaseName, session } = computer();
    const first = session();
    const firstIn = await first.signIn(direct(), client("demo-pro"));
    expect((await readUnits(firstIn.data)).source).toBe("network");
    expect((await storedKeys(databaseName)).some((key) => key.startsWith("units|"))).toBe(true);

    await first.signOut();
    expect(await storedKeys(databaseName)).toEqual([]);
    expect((await firstIn.data.cache.stats()).memoryEntries).toBe(0);

    const before = sandbox.counters.get(unitsRoute);
    const second = await session().signIn(direct(), client("demo-base"));
    const units = await readUnits(second.data);
    expect(units.source).toBe("network");
    expect(sandbox.counters.get(unitsRoute)).toBe(before + 1);
  });

  it("never serves one relay person's answers to the next, even when the first did not sign out", async () => {
    const firstKey = await relay.addUser("first-analyst", [SHARED_ACCOUNT_ID]);
    const secondKey = await relay.addUser("second-analyst", [SHARED_ACCOUNT_ID]);
    const { databaseName, session } = computer();
    const first = await session(relayFetch).signIn(throughRelay(), { kind: "relay", key: firstKey });
    const firstUnits = await readUnits(first.data);
    expect(firstUnits.source).toBe("network");
    // Excel closes without a sign-out: the first person's answers stay on this computer, under their key only.
    const keys = await storedKeys(databaseName);
    expect(keys.some((key) => key.startsWith("units|"))).toBe(true);
    for (const key of keys) {
      expect(key).not.toContain(firstKey);
      expect(key).not.toContain("team relay key");
    }

    const second = await session(relayFetch).signIn(throughRelay(), { kind: "relay", key: secondKey });
    expect(second.owner).not.toBe(first.owner);
    // The next person's sign-in removes what the first left behind rather than reading it into memory.
    const left = await storedKeys(databaseName);
    expect(left.filter((key) => keys.includes(key))).toEqual([]);
    expect((await second.data.cache.stats()).memoryEntries).toBe(left.length);
    const before = atRelay.get(`/api/v1/comp_sets/${compSetId}/units`) ?? 0;
    const secondUnits = await readUnits(second.data);
    expect(secondUnits.source).toBe("network");
    expect(atRelay.get(`/api/v1/comp_sets/${compSetId}/units`)).toBe(before + 1);
  });

  it("never serves one pasted token's answers to another token's sign-in", async () => {
    const { session } = computer();
    const firstToken = sandbox.context.tokens.issueManualToken("demo-pro").accessToken;
    const secondToken = sandbox.context.tokens.issueManualToken("demo-base").accessToken;
    const first = await session().signIn(direct(), { kind: "manual", accessToken: firstToken });
    expect((await readUnits(first.data)).source).toBe("network");
    expect(first.owner).not.toContain(firstToken);

    const before = sandbox.counters.get(unitsRoute);
    const second = await session().signIn(direct(), { kind: "manual", accessToken: secondToken });
    expect((await readUnits(second.data)).source).toBe("network");
    expect(sandbox.counters.get(unitsRoute)).toBe(before + 1);
  });

  it("keys each comp set read by the account it acts for", async () => {
    const { session } = computer();
    const signedIn = await session().signIn(direct(), client("demo-proplus"));
    const [one, other] = signedIn.accounts.map((account) => account.id);
    if (one === undefined || other === undefined) throw new Error("demo-proplus has two accounts.");
    const reads: [string, (accountId: number) => Promise<unknown>][] = [
      [
        "units",
        (accountId) => signedIn.data.read(UNITS, { compSetId: compSetId, filters: {} }, { accountId }),
      ],
      [
        "floor_plans",
        (accountId) => signedIn.data.read(FLOOR_PLANS, { compSetId: compSetId, filters: {} }, { accountId }),
      ],
      [
        "market_survey",
        (accountId) => signedIn.data.read(MARKET_SURVEY, { compSetId: compSetId }, { accountId }),
      ],
    ];
    for (const [endpoint, read] of reads) {
      const path = `/v1/comp_sets/:comp_set_id/${endpoint}`;
      const before = sandbox.counters.get(path);
      await read(one);
      await read(one);
      expect({ endpoint, requests: sandbox.counters.get(path) - before }).toEqual({ endpoint, requests: 1 });
      await read(other);
      expect({ endpoint, requests: sandbox.counters.get(path) - before }).toEqual({ endpoint, requests: 2 });
    }
  });

  it("ends the first person's sign-in, cache included, when another signs in; refused credentials change nothing", async () => {
    const { databaseName, session } = computer();
    const one = session();
    const first = await one.signIn(direct(), client("demo-pro"));
    await readUnits(first.data);
    const firstKeys = () =>
      storedKeys(databaseName).then((keys) => keys.filter((key) => key.includes('"demo-pro"')));
    expect(await firstKeys()).not.toEqual([]);

    await expect(
      one.signIn(direct(), { kind: "client", clientId: "demo-base", clientSecret: "not-the-secret" }),
    ).rejects.toThrow();
    expect(one.current?.owner).toBe("demo-pro");
    expect(await firstKeys()).not.toEqual([]);

    const second = await one.signIn(direct(), client("demo-base"));
    expect(await firstKeys()).toEqual([]);
    expect((await readUnits(second.data)).source).toBe("network");
    // The same person signing in again keeps their answers.
    const again = await one.signIn(direct(), client("demo-base"));
    expect((await readUnits(again.data)).source).toBe("cache");
  });

  it("keeps no answer that arrives after sign-out, and sends nothing more with the ended sign-in", async () => {
    const { databaseName, session } = computer();
    let releaseUnits: () => void = () => undefined;
    const unitsHeld = new Promise<void>((resolve) => (releaseUnits = resolve));
    let unitsSent: () => void = () => undefined;
    const unitsOnTheWire = new Promise<void>((resolve) => (unitsSent = resolve));
    // The units answer is on its way while the person signs out.
    const holdingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes("/units")) {
        unitsSent();
        await unitsHeld;
      }
      return response;
    };
    const person = session(holdingFetch);
    const signedIn = await person.signIn(direct(), client("demo-pro"));
    const reading = readUnits(signedIn.data);
    await unitsOnTheWire;
    const signingOut = person.signOut();
    releaseUnits();
    await reading;
    await signingOut;

    expect(await storedKeys(databaseName)).toEqual([]);
    expect((await signedIn.data.cache.stats()).memoryEntries).toBe(0);
    const before = sandbox.counters.total();
    await expect(
      signedIn.data.read(
        FLOOR_PLANS,
        { compSetId: compSetId, filters: {} },
        { accountId: SHARED_ACCOUNT_ID },
      ),
    ).rejects.toMatchObject({ kind: "unauthorized", message: expect.stringMatching(/^Signed out/) });
    expect(sandbox.counters.total()).toBe(before);
  });
});
