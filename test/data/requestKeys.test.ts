import "fake-indexeddb/auto";
import { accountsForClient, SHARED_ACCOUNT_ID } from "../../sandbox/data/clients";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { countSince, layerFor, PRO } from "./support/dataHarness";
import { COMP_SETS as COMP_SETS_ROW } from "../../src/data/endpoints";
import { PROPERTY_DETAILS } from "../../src/data/batchedEndpoints";
import { readForecast } from "../../src/data/forecastSeries";

/**
 * What a request's cache and coalescing key must hold, over HTTP: the account (one tenant's answer is never
 * another's) and, for forecasts, the month (the forecast window starts there).
 */
let sandbox: RunningSandbox;

beforeAll(async () => {
  // Half an hour before a new month (UTC), and every token valid for two hours.
  sandbox = await startInProcessSandbox({
    propertyCount: 2000,
    rateLimit: 1_000_000,
    now: "2026-03-31T23:30:00Z",
  });
});

afterAll(async () => {
  await sandbox.close();
});

const COMP_SETS = "/v1/accounts/:account_id/comp_sets";
const PRIVATE_ACCOUNT_ID = accountsForClient(PRO.clientId).find((account) => account.id !== SHARED_ACCOUNT_ID)
  ?.id as number;

/** The comp set ids the sandbox lists for an account. */
async function compSetIds(layer: ReturnType<typeof layerFor>["layer"], accountId: number): Promise<string[]> {
  return (await layer.read(COMP_SETS_ROW, {}, { accountId })).value.data.map((set) => set.id);
}

describe("the account id in the key", () => {
  it("keeps two accounts' cached comp sets apart", async () => {
    const { layer } = layerFor(sandbox);
    const before = sandbox.counters.snapshot();
    const shared = await compSetIds(layer, SHARED_ACCOUNT_ID);
    const own = await compSetIds(layer, PRIVATE_ACCOUNT_ID);
    expect(shared.every((id) => id.startsWith(String(SHARED_ACCOUNT_ID)))).toBe(true);
    expect(own.every((id) => id.startsWith(String(PRIVATE_ACCOUNT_ID)))).toBe(true);
    expect(own).not.toEqual(shared);
    expect(countSince(sandbox, COMP_SETS, before)).toBe(2);
    // Asked again, each account is answered from the cache, with its own list.
    expect(await compSetIds(layer, SHARED_ACCOUNT_ID)).toEqual(shared);
    expect(await compSetIds(layer, PRIVATE_ACCOUNT_ID)).toEqual(own);
    expect(countSince(sandbox, COMP_SETS, before)).toBe(2);
  });

  it("keeps two accounts' property details apart, also when answered from memory", async () => {
    const { layer } = layerFor(sandbox);
    const ids = sandbox
      .dataset()
      .properties.slice(0, 3)
      .map((property) => property.id);
    const details = (accountId: number) =>
      layer.knownMany(PROPERTY_DETAILS, {}, ids, { accountId }) ??
      layer.readMany(PROPERTY_DETAILS, {}, ids, { accountId });
    const before = sandbox.counters.snapshot();
    await details(SHARED_ACCOUNT_ID);
    expect(layer.knownMany(PROPERTY_DETAILS, {}, ids, { accountId: SHARED_ACCOUNT_ID })).toBeDefined();
    // The same ids for another account are not in memory: they cost that account its own call.
    expect(layer.knownMany(PROPERTY_DETAILS, {}, ids, { accountId: PRIVATE_ACCOUNT_ID })).toBeUndefined();
    await details(PRIVATE_ACCOUNT_ID);
    await details(SHARED_ACCOUNT_ID);
    expect(countSince(sandbox, "/v1/properties/bulk_details", before)).toBe(2);
  });

  it("never lets one account's request in flight answer another's", async () => {
    const { layer } = layerFor(sandbox);
    const before = sandbox.counters.snapshot();
    const [shared, own] = await Promise.all([
      compSetIds(layer, SHARED_ACCOUNT_ID),
      compSetIds(layer, PRIVATE_ACCOUNT_ID),
    ]);
    expect(shared.every((id) => id.startsWith(String(SHARED_ACCOUNT_ID)))).toBe(true);
    expect(own.every((id) => id.startsWith(String(PRIVATE_ACCOUNT_ID)))).toBe(true);
    expect(countSince(sandbox, COMP_SETS, before)).toBe(2);
  });
});

describe("the month in a forecast's key", () => {
  it("asks again when a new month begins, though last month's answer is still within its TTL", async () => {
    // The data layer and the sandbox share one clock, so "now" is the same month for both.
    const { layer } = layerFor(sandbox, { now: () => sandbox.clock.now() });
    const property = sandbox.dataset().properties.find((candidate) => candidate.hasForecast) as {
      id: number;
    };
    const ask = () =>
      readForecast(
        layer,
        { kind: "property", id: property.id },
        { aggregations: [{ field: "rent_growth_rate_yoy", aggregation_type: "avg" }] },
        { accountId: SHARED_ACCOUNT_ID },
      );
    const path = "/v1/properties/:property_id/forecasts";
    const before = sandbox.counters.snapshot();
    const march = await ask();
    expect(march.value[0]?.date).toBe("2026-03-01");
    expect((await ask()).source).toBe("cache");
    expect(countSince(sandbox, path, before)).toBe(1);

    sandbox.clock.advance(60 * 60 * 1000); // 00:30 on the 1st of April: one hour later, a new month
    const april = await ask();
    expect(april.source).toBe("network");
    expect(april.value[0]?.date).toBe("2026-04-01");
    expect(countSince(sandbox, path, before)).toBe(2);
  });
});
