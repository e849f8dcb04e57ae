/**
 * Runs in Chromium: the real cache modules (bundled by esbuild) against the browser's own IndexedDB. The test
 * calls these through `window.cachePage` and reloads the page between calls, so nothing survives but the
 * database.
 */
import { requestKey } from "../../../src/data/cacheKey";
import type { CacheKind } from "../../../src/data/cachePolicy";
import { openPersistentStore } from "../../../src/data/persistentStore";
import { ResponseCache } from "../../../src/data/responseCache";

const DATABASE = "rent-market-browser-test";

const keyOf = (kind: CacheKind, id: number) =>
  requestKey({ kind, caller: "demo-pro", accountId: 100, endpoint: "/browser", params: { id } });

function cache(maxStorageBytes?: number): ResponseCache {
  return new ResponseCache({ store: openPersistentStore(DATABASE), maxStorageBytes });
}

async function write(): Promise<void> {
  await cache().setMany([
    ...[1, 2, 3].map((id) => ({ key: keyOf("property", id), value: { id, rent: 1000 + id } })),
    { key: keyOf("market", 1), value: { name: "Austin", rent_avg_t30: 1650.5 } },
  ]);
}

const STORED: [CacheKind, number][] = [
  ["property", 1],
  ["property", 2],
  ["property", 3],
  ["market", 1],
];

async function read(): Promise<{
  values: Record<string, unknown>;
  fresh: boolean[];
  persistent: boolean;
  entries: number;
}> {
  const reader = cache();
  const found = await reader.getMany(STORED.map(([kind, id]) => keyOf(kind, id)));
  const stats = await reader.stats();
  const present = STORED.filter(([kind, id]) => found.has(keyOf(kind, id)));
  return {
    values: Object.fromEntries(
      present.map(([kind, id]) => [`${kind}${id}`, found.get(keyOf(kind, id))?.value]),
    ),
    fresh: present.map(([kind, id]) => found.get(keyOf(kind, id))?.fresh === true),
    persistent: stats.persistent,
    entries: stats.entries,
  };
}

async function clearKind(kind: CacheKind): Promise<void> {
  await cache().clear(kind);
}

/**
 * Writes three units entries under a cap that holds two of them: the least recently used entries (the market
 * written earlier, then units 11) must go.
 */
async function overfill(): Promise<void> {
  const small = cache(2 * JSON.stringify({ pad: "x".repeat(200) }).length + 10);
  for (const id of [11, 12, 13])
    await small.setMany([{ key: keyOf("units", id), value: { pad: "x".repeat(200) } }]);
}

async function unitsLeft(): Promise<number[]> {
  const found = await cache().getMany([11, 12, 13].map((id) => keyOf("units", id)));
  return [11, 12, 13].filter((id) => found.has(keyOf("units", id)));
}

Object.assign(window, { cachePage: { write, read, clearKind, overfill, unitsLeft } });
