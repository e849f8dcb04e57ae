import "fake-indexeddb/auto";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { ACCOUNT_ID, expectedAttributes, layerFor, propertyIds, propertyOf } from "./support/dataHarness";
import { NARRATIVES } from "../../src/data/endpoints";
import { PROPERTY_DETAILS } from "../../src/data/batchedEndpoints";
import { AnswerTrail } from "../../src/data/answerTrail";
import { RefreshPass } from "../../src/data/refreshPass";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startInProcessSandbox({ propertyCount: 2000, rateLimit: 100_000 });
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
    const own = await startInProcessSandbox({ propertyCount: 2000, rateLimit: 100_000 });
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
  // 2026-11-25 06:00 US Eastern (EST): the day's data is posted at 07:00, 12:00 UTC.
  const BEFORE_POSTING = Date.parse("2026-11-25T11:00:00Z");
  const POSTING = Date.parse("2026-11-25T12:00:00Z");

  it("asks again only what a posting may have changed, once per request, and serves later cells of it what it stored", async () => {
    let now = BEFORE_POSTING;
    const { layer } = layerFor(sandbox, { now: () => now });
    const [id] = propertyIds(sandbox, 1) as [number];
    const [boundary] = sandbox.context.dataset().geography.boundaries;
    const boundaryId = boundary?.id as number;
    const ask = (refresh?: RefreshPass) =>
      Promise.all([
        propertyOf(layer, id, { accountId: ACCOUNT_ID, refresh }),
        layer.read(NARRATIVES, { boundaryId: boundaryId }, { accountId: ACCOUNT_ID, refresh }),
      ]);
    expect((await ask()).map((answer) => answer.source)).toEqual(["network", "network"]);

    // A refresh before the next posting: nothing could have changed, nothing is asked.
    now += 10 * 60_000;
    const early = new RefreshPass(now);
    let before = sandbox.counters.total();
    expect((await ask(early)).map((answer) => answer.source)).toEqual(["cache", "cache"]);
    expect(sandbox.counters.total()).toBe(before);
    expect(early.report().counts).toEqual({ fresh: 0, current: 2, held: 0, failed: 0 });

    // After the posting: asked again once; a later cell of the same refresh is served what that stored.
    now = POSTING + 60_000;
    const after = new RefreshPass(now);
    before = sandbox.counters.total();
    expect((await ask(after)).map((answer) => answer.source)).toEqual(["network", "network"]);
    now += 5 * 60_000;
    expect((await ask(after)).map((answer) => answer.source)).toEqual(["cache", "cache"]);
    expect(sandbox.counters.total()).toBe(before + 2);
    expect(after.report().counts).toEqual({ fresh: 2, current: 0, held: 0, failed: 0 });
    await expect(propertyOf(layer, id, { accountId: ACCOUNT_ID, fresh: true })).resolves.toMatchObject({
      source: "network",
    });
  });

  it("keeps the earlier answer, and says why, when asking again is refused", async () => {
    let now = BEFORE_POSTING;
    const { layer } = layerFor(sandbox, { now: () => now });
    const [id] = propertyIds(sandbox, 1) as [number];
    const first = await propertyOf(layer, id, { accountId: ACCOUNT_ID });
    // The bulk export quota guard now holds every pull: one pull may spend none of the quota.
    layer.quota.configure({ quotaLimit: 100, maxShare: 0.001 });
    now = POSTING + 60_000;
    const refresh = new RefreshPass(now);
    const trail = new AnswerTrail();
    const before = sandbox.counters.total();

    const kept = await propertyOf(layer, id, { accountId: ACCOUNT_ID, refresh, trail });

    expect(sandbox.counters.total()).toBe(before);
    expect(kept).toMatchObject({ value: first.value, source: "kept", storedAt: BEFORE_POSTING });
    expect(refresh.report()).toEqual({
      counts: { fresh: 0, current: 0, held: 1, failed: 0 },
      reasons: [{ outcome: "held", reason: expect.stringMatching(/quota/i), answers: 1 }],
    });
    expect(trail.lines()).toEqual([
      expect.objectContaining({
        source: "kept",
        firstStoredAt: BEFORE_POSTING,
        reason: expect.stringMatching(/quota/i),
      }),
    ]);
    // Outside a refresh the same refusal is the cell's error, as before.
    await expect(propertyOf(layer, id, { accountId: ACCOUNT_ID })).rejects.toMatchObject({
      kind: "quota_guard",
    });
  });
});
