import "fake-indexeddb/auto";
import { requestKey } from "../../src/data/cacheKey";
import { IndexedDbStore, openPersistentStore } from "../../src/data/persistentStore";
import { ResponseCache } from "../../src/data/responseCache";
import type { CacheKind } from "../../src/data/cachePolicy";
import { HeldValuesStore } from "./support/heldValuesStore";

let databaseCounter = 0;
const freshDatabase = () => `cache-test-${++databaseCounter}`;

const key = (kind: CacheKind, id: number) =>
  requestKey({ kind, caller: "demo-pro", accountId: 1, endpoint: "/x", params: { id } });

function cacheOver(
  databaseName: string,
  clock: { now: number },
  extra: Partial<ConstructorParameters<typeof ResponseCache>[0]> = {},
) {
  return new ResponseCache({ store: new IndexedDbStore(databaseName), now: () => clock.now, ...extra });
}

describe("ResponseCache over IndexedDB (fake-indexeddb)", () => {
  it("serves a value stored by another instance over the same database", async () => {
    const clock = { now: 1_000 };
    const database = freshDatabase();
    const writer = cacheOver(database, clock);
    await writer.setMany([{ key: key("property", 1), value: { rent: 1500 } }]);
    const reader = cacheOver(database, clock);
    expect(await reader.get(key("property", 1))).toEqual({
      value: { rent: 1500 },
      storedAt: 1_000,
      fresh: true,
    });
    expect((await reader.stats()).hits).toBe(1);
  });

  it("reads many keys in one go and reports the missing ones as misses", async () => {
    const clock = { now: 0 };
    const cache = cacheOver(freshDatabase(), clock);
    await cache.setMany([1, 2, 3].map((id) => ({ key: key("property", id), value: id * 10 })));
    const found = await cache.getMany([1, 2, 3, 4].map((id) => key("property", id)));
    expect([...found.values()].map((entry) => entry.value)).toEqual([10, 20, 30]);
    const stats = await cache.stats();
    expect(stats).toMatchObject({ hits: 3, misses: 1, hitRate: 0.75 });
  });

  it("keeps expired entries as stale (not fresh) by the schedule of their kind", async () => {
    // 2026-07-15 06:30 US Eastern (EDT), half an hour before the day's posting at 07:00 (11:00 UTC).
    const clock = { now: Date.parse("2026-07-15T10:30:00Z") };
    const cache = cacheOver(freshDatabase(), clock);
    await cache.setMany([
      { key: key("comp_sets", 1), value: "a" },
      { key: key("property", 1), value: "p" },
    ]);
    clock.now = Date.parse("2026-07-15T11:00:00Z");
    // The posting may have changed the property's figures; a comp set list is served for its hour.
    expect((await cache.get(key("property", 1)))?.fresh).toBe(false);
    expect((await cache.get(key("comp_sets", 1)))?.fresh).toBe(true);
    expect(cache.peekFresh(key("property", 1))).toBeUndefined();
    expect(cache.peekFresh(key("comp_sets", 1))?.value).toBe("a");
  });

  it("is fresh until the next posting and not one millisecond more: an entry at the posting is expired", async () => {
    const stored = Date.parse("2026-07-15T12:00:00Z");
    const posting = Date.parse("2026-07-16T11:00:00Z"); // 07:00 EDT
    const clock = { now: stored };
    const database = freshDatabase();
    const cache = cacheOver(database, clock);
    await cache.setMany([{ key: key("market", 1), value: "m" }]);
    clock.now = posting - 1;
    expect(cache.peekFresh(key("market", 1))?.value).toBe("m");
    expect((await cache.get(key("market", 1)))?.fresh).toBe(true);
    clock.now = posting;
    expect(cache.peekFresh(key("market", 1))).toBeUndefined();
    expect(await cache.get(key("market", 1))).toEqual({ value: "m", storedAt: stored, fresh: false });
    // The same boundary for an entry read back from IndexedDB by another instance.
    expect((await cacheOver(database, clock).get(key("market", 1)))?.fresh).toBe(false);
  });

  it("evicts the least recently used entries beyond the storage cap, in memory and on disk", async () => {
    const clock = { now: 0 };
    const database = freshDatabase();
    const value = "x".repeat(100); // 102 bytes of JSON each
    const cache = cacheOver(database, clock, { maxStorageBytes: 350 });
    for (const id of [1, 2, 3]) {
      clock.now += 1;
      await cache.setMany([{ key: key("property", id), value }]);
    }
    clock.now += 1;
    await cache.get(key("property", 1)); // 1 is now more recently used than 2
    clock.now += 1;
    await cache.setMany([{ key: key("property", 4), value }]);
    const stats = await cache.stats();
    expect(stats.entries).toBe(3);
    expect(stats.evictions).toBe(1);
    const reopened = cacheOver(database, clock);
    const left = await reopened.getMany([1, 2, 3, 4].map((id) => key("property", id)));
    expect([...left.keys()]).toEqual([1, 3, 4].map((id) => key("property", id)));
  });

  it("caps memory separately and still finds evicted entries in IndexedDB", async () => {
    const clock = { now: 0 };
    const cache = cacheOver(freshDatabase(), clock, { maxMemoryBytes: 250 });
    const value = "y".repeat(100);
    await cache.setMany([1, 2, 3].map((id) => ({ key: key("property", id), value })));
    const stats = await cache.stats();
    expect(stats.memoryEntries).toBe(2);
    expect(stats.entries).toBe(3);
    expect((await cache.get(key("property", 1)))?.value).toBe(value);
  });

  it("clears one kind or everything, including entries written by another instance", async () => {
    const clock = { now: 0 };
    const database = freshDatabase();
    const cache = cacheOver(database, clock);
    await cache.setMany([
      { key: key("property", 1), value: 1 },
      { key: key("market", 1), value: 2 },
    ]);
    const other = cacheOver(database, clock);
    await other.setMany([{ key: key("property", 2), value: 3 }]);
    await cache.clear("property");
    const after = cacheOver(database, clock);
    const found = await after.getMany([key("property", 1), key("property", 2), key("market", 1)]);
    expect([...found.keys()]).toEqual([key("market", 1)]);
    expect((await cache.stats()).byKind).toEqual({ market: { entries: 1, bytes: 1 } });
    await cache.clear();
    expect((await cacheOver(database, clock).getMany([key("market", 1)])).size).toBe(0);
    expect((await cache.stats()).entries).toBe(0);
  });

  it("carries on in memory when IndexedDB fails", async () => {
    const failing = {
      getMany: () => Promise.reject(new Error("quota")),
      setMany: () => Promise.reject(new Error("quota")),
      deleteMany: () => Promise.reject(new Error("quota")),
      allMeta: () => Promise.reject(new Error("quota")),
      clear: () => Promise.reject(new Error("quota")),
    };
    const cache = new ResponseCache({ store: failing });
    await cache.setMany([{ key: key("units", 1), value: [1, 2] }]);
    expect((await cache.get(key("units", 1)))?.value).toEqual([1, 2]);
    expect((await cache.getMany([key("units", 2)])).size).toBe(0);
    expect((await cache.stats()).storageFailures).toBeGreaterThan(0);
  });

  it("with preload, answers every stored entry from memory without reading IndexedDB per key", async () => {
    const clock = { now: 0 };
    const database = freshDatabase();
    const writer = cacheOver(database, clock);
    await writer.setMany([1, 2, 3, 4, 5].map((id) => ({ key: key("property", id), value: { id } })));
    const readsPerKey = jest.spyOn(IDBObjectStore.prototype, "get");
    try {
      const reader = cacheOver(database, clock, { preload: true });
      await reader.loaded;
      for (const id of [1, 2, 3, 4, 5]) expect(reader.peekFresh(key("property", id))?.value).toEqual({ id });
      expect(readsPerKey).not.toHaveBeenCalled();
      expect((await reader.stats()).memoryEntries).toBe(5);
    } finally {
      readsPerKey.mockRestore();
    }
  });

  it("by default holds in memory all that IndexedDB holds: a large workbook's 20 MB of answers", async () => {
    const clock = { now: 0 };
    const database = freshDatabase();
    const megabyte = "m".repeat(1024 * 1024);
    const ids = Array.from({ length: 20 }, (_, index) => index + 1);
    await cacheOver(database, clock).setMany(
      ids.map((id) => ({ key: key("property", id), value: megabyte })),
    );
    const reader = cacheOver(database, clock, { preload: true });
    await reader.loaded;
    const stats = await reader.stats();
    expect(stats).toMatchObject({ entries: 20, memoryEntries: 20, evictions: 0 });
  });

  it("preloads the newest entries as far as the memory cap allows and finds the rest in IndexedDB", async () => {
    const clock = { now: 0 };
    const database = freshDatabase();
    const writer = cacheOver(database, clock);
    const value = "z".repeat(100); // 102 bytes of JSON each
    for (const id of [1, 2, 3]) {
      clock.now += 1;
      await writer.setMany([{ key: key("property", id), value }]);
    }
    const reader = cacheOver(database, clock, { preload: true, maxMemoryBytes: 250 });
    await reader.loaded;
    expect(reader.peekFresh(key("property", 1))).toBeUndefined();
    expect(reader.peekFresh(key("property", 2))?.value).toBe(value);
    expect(reader.peekFresh(key("property", 3))?.value).toBe(value);
    expect((await reader.get(key("property", 1)))?.value).toBe(value);
  });

  it("keeps what arrived while it preloaded, and brings back nothing cleared meanwhile", async () => {
    const clock = { now: 0 };
    const database = freshDatabase();
    await cacheOver(database, clock).setMany([
      { key: key("property", 1), value: "old" },
      { key: key("market", 1), value: "kept" },
    ]);
    clock.now = 10;
    // Each time the stored values are read first, then held back while the cache changes.
    const arrivingStore = new HeldValuesStore(database);
    const arriving = new ResponseCache({ store: arrivingStore, preload: true, now: () => clock.now });
    await arrivingStore.read;
    await arriving.setMany([{ key: key("property", 1), value: "new" }]);
    arrivingStore.release();
    await arriving.loaded;
    expect(arriving.peekFresh(key("property", 1))?.value).toBe("new");
    expect(arriving.peekFresh(key("market", 1))?.value).toBe("kept");

    const store = new HeldValuesStore(database);
    const clearing = new ResponseCache({ store, preload: true, now: () => clock.now });
    await store.read;
    await clearing.clear();
    store.release();
    await clearing.loaded;
    expect(clearing.peekFresh(key("market", 1))).toBeUndefined();
    expect((await clearing.stats()).memoryEntries).toBe(0);
  });

  it("opens IndexedDB where the runtime has it", () => {
    expect(openPersistentStore(freshDatabase())).toBeInstanceOf(IndexedDbStore);
  });
});
