import { clear, createStore, delMany, getMany, promisifyRequest, setMany, type UseStore } from "idb-keyval";
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
  /** Every entry's value in one read, where the store can (else the cache reads the keys it wants). */
  allValues?(): Promise<Map<string, unknown>>;
  clear(): Promise<void>;
}

// Metadata and value are separate records so the index can be rebuilt without reading every value; both are
// written in one transaction (setMany is atomic), so they never disagree.
const META = "m:";
const DATA = "d:";

/** Every key with `prefix`: both prefixes are ASCII, so no key of the other kind sorts between these bounds. */
const keysWith = (prefix: string) => IDBKeyRange.bound(prefix, `${prefix}\uffff`);

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

  allMeta(): Promise<Map<string, EntryMeta>> {
    return this.readAll<EntryMeta>(META);
  }

  allValues(): Promise<Map<string, unknown>> {
    return this.readAll<unknown>(DATA);
  }

  /**
   * The records under one prefix, by key without it: two requests (keys, values) in one transaction, where
   * idb-keyval's getMany makes one request per key.
   */
  private readAll<T>(prefix: string): Promise<Map<string, T>> {
    return this.store("readonly", async (store) => {
      const range = keysWith(prefix);
      const [keyList, values] = await Promise.all([
        promisifyRequest(store.getAllKeys(range)),
        promisifyRequest(store.getAll(range) as IDBRequest<T[]>),
      ]);
      return new Map(keyList.map((key, index) => [String(key).slice(prefix.length), values[index] as T]));
    });
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

/**
 * Deletes databases an earlier version of the add-in kept and this one no longer reads, so their answers do
 * not stay on the person's computer. Nothing happens where there is no IndexedDB; a failure is ignored (the
 * old database is then only unused).
 */
export function removeDatabases(names: readonly string[]): void {
  if (typeof indexedDB === "undefined") return;
  for (const name of names) {
    try {
      indexedDB.deleteDatabase(name);
    } catch {
      // Not deleted: unused, and harmless.
    }
  }
}
