import "fake-indexeddb/auto";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { ACCOUNT_ID, expectedAttributes, layerFor, propertyIds, propertyOf } from "./support/dataHarness";
import { NARRATIVES } from "../../src/data/endpoints";
import { PROPERTY_DETAILS } from "../../src/data/batchedEndpoints";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, propertyCount: 2000, rateLimit: 100_000 });
});

afterAll(async () => {
  await sandbox.close();
});

describe("a new data layer over the same IndexedDB", () => {
  it("makes zero network calls for requests cached by an earlier instance", async () => {
    const databaseName = `shared-${process.pid}`;
    const first = layerFor(sandbox, { databaseName }).layer;
    const ids = propertyIds(sandbox, 30);
    await first.readMany(PROPERTY_DETAILS, {}, ids, { accountId: ACCOUNT_ID });
    await first.accounts();
    await first.read(
      NARRATIVES,
      { boundaryId: sandbox.context.dataset().geography.boundaries[0]?.id as number },
      {
        accountId: ACCOUNT_ID,
      },
    );

    const second = layerFor(sandbox, { databaseName }).layer;
    const before = sandbox.counters.total();
    const details = await second.readMany(PROPERTY_DETAILS, {}, ids, { accountId: ACCOUNT_ID });
    const accounts = await second.accounts();
    await second.read(
      NARRATIVES,
      { boundaryId: sandbox.context.dataset().geography.boundaries[0]?.id as number },
      {
        accountId: ACCOUNT_ID,
      },
    );
    expect(sandbox.counters.total()).toBe(before);
    expect(accounts.source).toBe("cache");
    for (const id of ids) {
      expect(details.records.get(id)).toMatchObject({
        source: "cache",
        value: { property_name: expectedAttributes(sandbox, id).property_name },
      });
    }
    expect((await second.stats()).cache.hitRate).toBe(1);
  });
});

describe("offline", () => {
  it("serves cached values flagged stale and fails uncached requests with the offline kind", async () => {
    const own = await startSandbox({ port: 0, propertyCount: 2000, rateLimit: 100_000 });
    let now = Date.now();
    const { layer } = layerFor(own, {
      now: () => now,
      retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 2 },
    });
    const [cachedId, uncachedId] = propertyIds(own, 2) as [number, number];
    const fresh = await propertyOf(layer, cachedId, { accountId: ACCOUNT_ID });
    const accounts = await layer.accounts();
    await own.close();
    now += 2 * 24 * 3_600_000; // past every TTL: the layer has to ask the service, which is gone

    const stale = await propertyOf(layer, cachedId, { accountId: ACCOUNT_ID });
    expect(stale).toEqual({ value: fresh.value, source: "stale", storedAt: fresh.storedAt });
    expect(await layer.accounts()).toMatchObject({ source: "stale", value: accounts.value });
    await expect(propertyOf(layer, uncachedId, { accountId: ACCOUNT_ID })).rejects.toMatchObject({
      kind: "offline",
    });
    await expect(layer.accounts({ fresh: true })).resolves.toMatchObject({ source: "stale" });
    expect((await layer.stats()).cache.staleServed).toBe(3);
  });
});

describe("a request the service answers with 'not found'", () => {
  it("is not sent again while the answer is fresh", async () => {
    const { layer } = layerFor(sandbox);
    const before = sandbox.counters.get("/v1/markets/narratives");
    for (let round = 0; round < 3; round++) {
      await expect(
        layer.read(NARRATIVES, { boundaryId: 987_654_321 }, { accountId: ACCOUNT_ID }),
      ).rejects.toMatchObject({
        kind: "not_found",
      });
    }
    expect(sandbox.counters.get("/v1/markets/narratives") - before).toBe(1);
    await expect(
      layer.read(NARRATIVES, { boundaryId: 987_654_321 }, { accountId: ACCOUNT_ID, fresh: true }),
    ).rejects.toMatchObject({
      kind: "not_found",
    });
    expect(sandbox.counters.get("/v1/markets/narratives") - before).toBe(2);
  });
});

describe("clearing", () => {
  it("clears one kind so that only its requests go to the network again", async () => {
    const { layer } = layerFor(sandbox);
    const [id] = propertyIds(sandbox, 1) as [number];
    await propertyOf(layer, id, { accountId: ACCOUNT_ID });
    await layer.accounts();
    await layer.clearCache("property");
    const before = sandbox.counters.total();
    expect((await layer.accounts()).source).toBe("cache");
    expect((await propertyOf(layer, id, { accountId: ACCOUNT_ID })).source).toBe("network");
    expect(sandbox.counters.total()).toBe(before + 1);
  });
});

describe("a refresh", () => {
  it("asks the service once per request, then serves later cells of the same refresh from what it stored", async () => {
    let now = 1_000_000;
    const { layer } = layerFor(sandbox, { now: () => now });
    const [id] = propertyIds(sandbox, 1) as [number];
    const [boundary] = sandbox.context.dataset().geography.boundaries;
    const boundaryId = boundary?.id as number;
    const ask = (freshSince?: number) =>
      Promise.all([
        propertyOf(layer, id, { accountId: ACCOUNT_ID, freshSince }),
        layer.read(NARRATIVES, { boundaryId: boundaryId }, { accountId: ACCOUNT_ID, freshSince }),
      ]);
    expect((await ask()).map((answer) => answer.source)).toEqual(["network", "network"]);
    expect((await ask()).map((answer) => answer.source)).toEqual(["cache", "cache"]);

    now += 60_000;
    const refreshStartedAt = now;
    const before = sandbox.counters.total();
    expect((await ask(refreshStartedAt)).map((answer) => answer.source)).toEqual(["network", "network"]);
    now += 5_000; // a later cell of the same refresh
    expect((await ask(refreshStartedAt)).map((answer) => answer.source)).toEqual(["cache", "cache"]);
    expect(sandbox.counters.total()).toBe(before + 2);
    await expect(propertyOf(layer, id, { accountId: ACCOUNT_ID, fresh: true })).resolves.toMatchObject({
      source: "network",
    });
  });
});
