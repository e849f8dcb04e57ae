import "fake-indexeddb/auto";
import { MAX_BULK_DETAILS_IDS } from "../../src/api/contractLimits";
import { ApiError } from "../../src/api/errors";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { PROPERTY_SEARCH } from "../../src/data/endpoints";
import {
  ACCOUNT_ID,
  countSince,
  expectedAttributes,
  layerFor,
  propertyIds,
  propertyOf,
} from "./support/dataHarness";
import { PROPERTY_DETAILS } from "../../src/data/batchedEndpoints";

const BULK = "/v1/properties/bulk_details";
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startInProcessSandbox({ propertyCount: 2000, rateLimit: 100_000 });
});

afterAll(async () => {
  await sandbox.close();
});

describe("bulk details batching", () => {
  it("answers 1,000 concurrent property-field requests for 250 ids with ceil(250 / max ids) calls", async () => {
    const { layer } = layerFor(sandbox);
    const ids = propertyIds(sandbox, 250);
    const fields = ["property_name", "asking_rent", "unit_count", "city"] as const;
    const before = sandbox.counters.snapshot();
    const requests = ids.flatMap((id) =>
      fields.map(async (field) => {
        const fetched = await propertyOf(layer, id, { accountId: ACCOUNT_ID });
        return { id, field, value: fetched.value[field] };
      }),
    );
    const answers = await Promise.all(requests);
    expect(answers).toHaveLength(1000);
    expect(countSince(sandbox, BULK, before)).toBe(Math.ceil(250 / MAX_BULK_DETAILS_IDS));
    for (const { id, field, value } of answers) expect(value).toEqual(expectedAttributes(sandbox, id)[field]);
    const stats = await layer.stats();
    expect(stats.bulkExportUsage[ACCOUNT_ID]).toBe(250);
  });

  it("makes one call for identical concurrent requests", async () => {
    const { layer } = layerFor(sandbox);
    const [id] = propertyIds(sandbox, 1) as [number];
    const before = sandbox.counters.snapshot();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => propertyOf(layer, id, { accountId: ACCOUNT_ID })),
    );
    expect(countSince(sandbox, BULK, before)).toBe(1);
    expect(new Set(answers.map((answer) => answer.value.property_name))).toEqual(
      new Set([expectedAttributes(sandbox, id).property_name]),
    );
  });

  it("fails only the callers of a missing id and never asks again for cached or missing properties", async () => {
    const { layer } = layerFor(sandbox);
    const ids = propertyIds(sandbox, 3);
    const missing = 99_999_999;
    const before = sandbox.counters.snapshot();
    const first = await layer.readMany(PROPERTY_DETAILS, {}, [...ids, missing], { accountId: ACCOUNT_ID });
    expect(countSince(sandbox, BULK, before)).toBe(1);
    expect(first.quotaAdded).toBe(3);
    const failure = first.records.get(missing);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ kind: "not_found" });
    for (const id of ids) expect(first.records.get(id)).toMatchObject({ source: "network" });

    const again = await layer.readMany(PROPERTY_DETAILS, {}, [...ids, missing], { accountId: ACCOUNT_ID });
    expect(countSince(sandbox, BULK, before)).toBe(1); // the missing id is known missing: not asked again
    expect(again.quotaAdded).toBe(0);
    for (const id of ids) expect(again.records.get(id)).toMatchObject({ source: "cache" });
    expect(again.records.get(missing)).toMatchObject({ kind: "not_found" });
    await expect(propertyOf(layer, missing, { accountId: ACCOUNT_ID })).rejects.toMatchObject({
      kind: "not_found",
    });
    expect(countSince(sandbox, BULK, before)).toBe(1);
  });

  it("sends a batch when the injected schedule runs it, with every request that joined before", async () => {
    const dispatches: (() => void)[] = [];
    const { layer } = layerFor(sandbox, { batchSchedule: (dispatch) => dispatches.push(dispatch) });
    const ids = propertyIds(sandbox, 3);
    const before = sandbox.counters.snapshot();
    const first = layer.readMany(PROPERTY_DETAILS, {}, ids.slice(0, 2), { accountId: ACCOUNT_ID });
    const second = layer.readMany(PROPERTY_DETAILS, {}, ids.slice(1), { accountId: ACCOUNT_ID });
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(countSince(sandbox, BULK, before)).toBe(0);
    expect(dispatches).toHaveLength(1);
    (dispatches[0] as () => void)();
    const [a, b] = await Promise.all([first, second]);
    expect(countSince(sandbox, BULK, before)).toBe(1);
    for (const id of ids) {
      const record = (ids.indexOf(id) < 2 ? a : b).records.get(id);
      expect(record).toMatchObject({ source: "network", value: expectedAttributes(sandbox, id) });
    }
  });

  it("never asks for properties a property search already returned", async () => {
    const { layer } = layerFor(sandbox);
    const boundary = sandbox.context
      .dataset()
      .geography.boundaries.find((candidate) => candidate.geoType === "ZipCode");
    if (!boundary) throw new Error("The sandbox has no ZIP code boundary");
    const search = await layer.read(
      PROPERTY_SEARCH,
      { geo_boundary_ids: [boundary.id] },
      { accountId: ACCOUNT_ID },
    );
    const ids = search.value.data.map((record) => Number(record.id));
    expect(ids.length).toBeGreaterThan(0);
    const before = sandbox.counters.snapshot();
    const details = await layer.readMany(PROPERTY_DETAILS, {}, ids, { accountId: ACCOUNT_ID });
    expect(countSince(sandbox, BULK, before)).toBe(0);
    expect(details.quotaAdded).toBe(0);
    for (const id of ids) {
      expect(details.records.get(id)).toMatchObject({
        source: "cache",
        value: expectedAttributes(sandbox, id),
      });
    }
    expect((await layer.stats()).bulkExportUsage[ACCOUNT_ID]).toBe(ids.length);
  });

  it("keeps a shared batch going when one caller cancels", async () => {
    const { layer } = layerFor(sandbox);
    const [id] = propertyIds(sandbox, 1) as [number];
    const leaving = new AbortController();
    const cancelled = propertyOf(layer, id, { accountId: ACCOUNT_ID, signal: leaving.signal });
    const staying = propertyOf(layer, id, { accountId: ACCOUNT_ID });
    leaving.abort();
    await expect(cancelled).rejects.toMatchObject({ kind: "cancelled" });
    expect((await staying).value.property_name).toBe(expectedAttributes(sandbox, id).property_name);
  });

  it("splits a set larger than the contract maximum", async () => {
    const { layer } = layerFor(sandbox);
    const ids = propertyIds(sandbox, MAX_BULK_DETAILS_IDS * 2 + 1);
    const before = sandbox.counters.snapshot();
    const details = await layer.readMany(PROPERTY_DETAILS, {}, ids, { accountId: ACCOUNT_ID, fresh: true });
    expect(countSince(sandbox, BULK, before)).toBe(3);
    expect([...details.records.values()].every((record) => !(record instanceof ApiError))).toBe(true);
  });

  describe("while an earlier batch's call is in flight", () => {
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    beforeEach(() => sandbox.context.faults.update({ latencyMs: 300 }));
    afterEach(() => sandbox.context.faults.reset());

    it("a later batch waits for that call instead of asking again", async () => {
      const { layer } = layerFor(sandbox);
      const [id] = propertyIds(sandbox, 1) as [number];
      const before = sandbox.counters.snapshot();
      const first = propertyOf(layer, id, { accountId: ACCOUNT_ID, fresh: true });
      await pause(50); // the first batch has gone out
      const second = propertyOf(layer, id, { accountId: ACCOUNT_ID });
      const [a, b] = await Promise.all([first, second]);
      expect(countSince(sandbox, BULK, before)).toBe(1);
      expect(b.value).toEqual(a.value);
    });

    it("a later batch asks itself when every caller of that call cancelled it", async () => {
      const { layer, tokens } = layerFor(sandbox);
      await tokens.token(); // so that the first call really goes out before it is cancelled
      const [id] = propertyIds(sandbox, 1) as [number];
      const before = sandbox.counters.snapshot();
      const leaving = new AbortController();
      const first = propertyOf(layer, id, { accountId: ACCOUNT_ID, signal: leaving.signal });
      await pause(50);
      const second = propertyOf(layer, id, { accountId: ACCOUNT_ID });
      await pause(50); // the second batch now borrows the first one's call
      leaving.abort();
      await expect(first).rejects.toMatchObject({ kind: "cancelled" });
      expect((await second).value.property_name).toBe(expectedAttributes(sandbox, id).property_name);
      expect(countSince(sandbox, BULK, before)).toBe(2);
    });
  });
});
