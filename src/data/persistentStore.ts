import { clear, createStore, delMany, getMany, keys, setMany, type UseStore } from "idb-keyval";
import type { CacheKind } from "./cachePolicy";

/** What the cache knows about an entry without reading its value. */
export interface EntryMeta {
  kind: CacheKind;
  /** Epoch ms when the value arrived from the service. */
  storedAt: number;
  /** Approximate size: UTF-16 code units of the value's JSON. */
  bytes: number;
}

export interface StoredEntry {
  meta: EntryMeta;
  value: unknown;
}

/** The durable tier of the cache. */
export interface PersistentStore {
  getMany(keys: string[]): Promise<(StoredEntry | undefined)[]>;
  setMany(entries: [string, StoredEntry][]): Promise<void>;
  deleteMany(keys: string[]): Promise<void>;
  /** Every entry's metadata, to rebuild the size index, clear by kind and count. */
  allMeta(): Promise<Map<string, EntryMeta>>;
  clear(): Promise<void>;
}

// Metadata and value are separate records so the index can be rebuilt without reading every value; both are
// written in one transaction (setMany is atomic), so they never disagree.
const META = "m:";
const DATA = "d:";

/** IndexedDB through idb-keyval, in a database of our own so nothing else in the origin collides with it. */
export class IndexedDbStore implements PersistentStore {
  private readonly store: UseStore;

  constructor(databaseName: string) {
    this.store = createStore(databaseName, "entries");
  }

  async getMany(keyList: string[]): Promise<(StoredEntry | undefined)[]> {
    if (keyList.length === 0) return [];
    const values = await getMany<unknown>(
      keyList.flatMap((key) => [META + key, DATA + key]),
      this.store,
    );
    return keyList.map((_, index) => {
      const meta = values[index * 2] as EntryMeta | undefined;
      return meta ? { meta, value: values[index * 2 + 1] } : undefined;
    });
  }

  setMany(entries: [string, StoredEntry][]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    return setMany(
      entries.flatMap(([key, entry]): [string, unknown][] => [
        [META + key, entry.meta],
        [DATA + key, entry.value],
      ]),
      this.store,
    );
  }

  deleteMany(keyList: string[]): Promise<void> {
    if (keyList.length === 0) return Promise.resolve();
    return delMany(
      keyList.flatMap((key) => [META + key, DATA + key]),
      this.store,
    );
  }

  async allMeta(): Promise<Map<string, EntryMeta>> {
    const metaKeys = (await keys<string>(this.store)).filter((key) => key.startsWith(META));
    const metas = await getMany<EntryMeta>(metaKeys, this.store);
    const index = new Map<string, EntryMeta>();
    metaKeys.forEach((key, position) => {
      const meta = metas[position];
      if (meta) index.set(key.slice(META.length), meta);
    });
    return index;
  }

  clear(): Promise<void> {
    return clear(this.store);
  }
}

/** The durable store where this runtime has IndexedDB, else none: the cache then lives in memory only. */
export function openPersistentStore(databaseName: string): PersistentStore | undefined {
  if (typeof indexedDB === "undefined") return undefined;
  try {
    return new IndexedDbStore(databaseName);
  } catch {
    return undefined;
  }
}
