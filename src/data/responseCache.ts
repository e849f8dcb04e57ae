import type { CacheKind } from "./cachePolicy";
import { kindOfKey } from "./cacheKey";
import { FreshnessSchedule } from "./freshnessSchedule";
import type { EntryMeta, PersistentStore, StoredEntry } from "./persistentStore";

/** A cached answer and whether it is still what the service has (no posting since it was fetched, per its kind). */
export interface CachedValue<T> {
  value: T;
  storedAt: number;
  fresh: boolean;
}

export interface ResponseCacheOptions {
  /** The durable tier; absent where IndexedDB is missing, and the cache is then memory only. */
  store?: PersistentStore;
  /** When each kind's answers can change (the contract's x-freshness, at the posting time set). */
  schedule?: FreshnessSchedule;
  maxMemoryBytes?: number;
  maxStorageBytes?: number;
  /**
   * Read the durable tier into memory when the cache opens (see `loaded`): a sign-in's cache, so that its
   * first recalculation is answered from memory. The relay's shared cache reads on demand.
   */
  preload?: boolean;
  /**
   * Whose cache this is, for a sign-in's preload: entries of anyone else (a person who left without signing
   * out) are removed from the durable tier instead of read, so one person's answers are on the computer at a time.
   */
  owns?: (key: string) => boolean;
  now?: () => number;
}

export interface CacheStats {
  persistent: boolean;
  /** Entries and approximate bytes held (the durable tier when there is one, else memory). */
  entries: number;
  bytes: number;
  memoryEntries: number;
  memoryBytes: number;
  byKind: Partial<Record<CacheKind, { entries: number; bytes: number }>>;
  /** Lookups answered by a fresh entry, lookups that were not, and hits / (hits + misses). */
  hits: number;
  misses: number;
  hitRate: number;
  /** Expired entries served because the service could not be reached. */
  staleServed: number;
  evictions: number;
  /** Durable-tier operations that failed (the cache carried on in memory). */
  storageFailures: number;
}

interface IndexEntry extends EntryMeta {
  usedAt: number;
}

/** What IndexedDB may hold (JSON length, see sizeOf): beyond it the least recently used entries go. */
const DEFAULT_MAX_STORAGE_BYTES = 64 * 1024 * 1024;
/**
 * What memory may hold: as much as IndexedDB, so that a workbook whose answers are stored is recalculated from
 * memory. A smaller memory tier than the workbook's answers makes every recalculation read IndexedDB and evict
 * what the next cells need (a 100,000-cell workbook stores about 36 MB).
 */
const DEFAULT_MAX_MEMORY_BYTES = DEFAULT_MAX_STORAGE_BYTES;

/** JSON length as the size measure: cheap, and proportional to what IndexedDB and memory hold. */
function sizeOf(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

/**
 * Answers kept in memory in front of IndexedDB. Expired entries are kept (not served as fresh) so that they
 * can be served, flagged, when the service cannot be reached; size caps evict the least recently used.
 */
export class ResponseCache {
  private readonly memory = new Map<string, StoredEntry>();
  private memoryBytes = 0;
  private storageIndex: Promise<Map<string, IndexEntry>> | undefined;
  /** Counts clears: a load of the durable tier that started before one must not bring back what it cleared. */
  private clears = 0;
  /** Closed at sign-out: answers that arrive afterwards are handed to their callers but never kept. */
  private closed = false;
  /** Settles when the durable tier's entries have been read into memory (at once without a durable tier). */
  readonly loaded: Promise<void>;
  readonly schedule: FreshnessSchedule;
  private readonly maxMemoryBytes: number;
  private readonly maxStorageBytes: number;
  private readonly now: () => number;
  private readonly counts = { hits: 0, misses: 0, staleServed: 0, evictions: 0, storageFailures: 0 };

  constructor(private readonly options: ResponseCacheOptions = {}) {
    this.schedule = options.schedule ?? new FreshnessSchedule();
    this.maxMemoryBytes = options.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES;
    this.maxStorageBytes = options.maxStorageBytes ?? DEFAULT_MAX_STORAGE_BYTES;
    this.now = options.now ?? Date.now;
    this.loaded = options.preload ? this.loadMemory() : Promise.resolve();
  }

  /** Until when an answer stored at `storedAt` under `key` is served without asking again (Infinity: for good). */
  freshUntil(key: string, storedAt: number): number {
    return this.schedule.freshUntil(kindOfKey(key), storedAt);
  }

  /** Whether the service may now answer the request under `key` differently than it did at `storedAt`. */
  couldHaveChanged(key: string, storedAt: number): boolean {
    return this.schedule.couldHaveChanged(kindOfKey(key), storedAt, this.now());
  }

  private view<T>(entry: StoredEntry): CachedValue<T> {
    const fresh = this.now() < this.schedule.freshUntil(entry.meta.kind, entry.meta.storedAt);
    return { value: entry.value as T, storedAt: entry.meta.storedAt, fresh };
  }

  /**
   * Whether a cached entry answers a call without a request: fresh, and stored at or after `notBefore` (a
   * refresh's start) unless nothing could have changed since it was stored. `notBefore` Infinity takes none.
   */
  serves(key: string, entry: CachedValue<unknown>, notBefore = Number.NEGATIVE_INFINITY): boolean {
    if (!entry.fresh || notBefore === Number.POSITIVE_INFINITY) return false;
    return entry.storedAt >= notBefore || !this.couldHaveChanged(key, entry.storedAt);
  }

  /** An entry held in memory that `serves` the call, without touching IndexedDB (the fast path of a recalculation). */
  peekFresh<T>(key: string, notBefore = Number.NEGATIVE_INFINITY): CachedValue<T> | undefined {
    const entry = this.memory.get(key);
    if (!entry) return undefined;
    const view = this.view<T>(entry);
    if (!this.serves(key, view, notBefore)) return undefined;
    this.touchMemory(key, entry);
    this.counts.hits += 1;
    return view;
  }

  /**
   * Looks many keys up at once: memory first, then one IndexedDB read for the rest. Answers include expired
   * entries (fresh: false) for stale-if-offline; each key counts as a hit only when fresh.
   */
  async getMany<T>(keyList: readonly string[]): Promise<Map<string, CachedValue<T>>> {
    const found = new Map<string, StoredEntry>();
    const missing: string[] = [];
    for (const key of new Set(keyList)) {
      const entry = this.memory.get(key);
      if (entry) {
        this.touchMemory(key, entry);
        found.set(key, entry);
      } else missing.push(key);
    }
    if (missing.length > 0 && this.options.store) {
      const stored = await this.guard(() => this.options.store?.getMany(missing), []);
      missing.forEach((key, position) => {
        const entry = stored?.[position];
        if (!entry) return;
        found.set(key, entry);
        this.remember(key, entry);
      });
    }
    if (this.options.store && found.size > 0) {
      const index = await this.index();
      for (const key of found.keys()) {
        const meta = index.get(key);
        if (meta) meta.usedAt = this.now();
      }
    }
    const answer = new Map<string, CachedValue<T>>();
    for (const key of new Set(keyList)) {
      const entry = found.get(key);
      const view = entry ? this.view<T>(entry) : undefined;
      if (view?.fresh) this.counts.hits += 1;
      else this.counts.misses += 1;
      if (view) answer.set(key, view);
    }
    return answer;
  }

  async get<T>(key: string): Promise<CachedValue<T> | undefined> {
    return (await this.getMany<T>([key])).get(key);
  }

  /** Stores answers that just arrived from the service; returns their storedAt. */
  async setMany(entries: readonly { key: string; value: unknown }[]): Promise<number> {
    const storedAt = this.now();
    if (this.closed) return storedAt;
    const records: [string, StoredEntry][] = entries.map(({ key, value }) => [
      key,
      { meta: { kind: kindOfKey(key), storedAt, bytes: sizeOf(value) }, value },
    ]);
    for (const [key, entry] of records) this.remember(key, entry);
    const store = this.options.store;
    if (!store || records.length === 0) return storedAt;
    const written = await this.guard(async () => {
      await store.setMany(records);
      return true;
    }, false);
    if (!written) return storedAt;
    const index = await this.index();
    for (const [key, entry] of records) index.set(key, { ...entry.meta, usedAt: storedAt });
    await this.evictStorage(index);
    return storedAt;
  }

  /** Notes that an expired entry was served because the service could not be reached. */
  noteStaleServed(count = 1): void {
    this.counts.staleServed += count;
  }

  /** Forgets everything and keeps nothing from now on: the sign-in it belonged to has ended. */
  close(): Promise<void> {
    this.closed = true;
    return this.clear();
  }

  /** Forgets everything, or every entry of one kind. */
  async clear(kind?: CacheKind): Promise<void> {
    this.clears += 1;
    for (const [key, entry] of [...this.memory]) {
      if (kind === undefined || entry.meta.kind === kind) this.forgetMemory(key);
    }
    const store = this.options.store;
    if (!store) return;
    if (kind === undefined) {
      await this.guard(() => store.clear(), undefined);
      this.storageIndex = Promise.resolve(new Map());
      return;
    }
    // Read the durable index afresh: another instance over the same database may have added entries.
    const all = await this.guard(() => store.allMeta(), new Map<string, EntryMeta>());
    const doomed = [...all].filter(([, meta]) => meta.kind === kind).map(([key]) => key);
    await this.guard(() => store.deleteMany(doomed), undefined);
    const index = await this.index();
    for (const key of doomed) index.delete(key);
    for (const [key, meta] of index) if (meta.kind === kind) index.delete(key);
  }

  async stats(): Promise<CacheStats> {
    const persistent = this.options.store !== undefined;
    const held: Iterable<EntryMeta> = persistent
      ? (await this.index()).values()
      : [...this.memory.values()].map((entry) => entry.meta);
    const byKind: CacheStats["byKind"] = {};
    let entries = 0;
    let bytes = 0;
    for (const meta of held) {
      entries += 1;
      bytes += meta.bytes;
      const tally = (byKind[meta.kind] ??= { entries: 0, bytes: 0 });
      tally.entries += 1;
      tally.bytes += meta.bytes;
    }
    const lookups = this.counts.hits + this.counts.misses;
    return {
      persistent,
      entries,
      bytes,
      memoryEntries: this.memory.size,
      memoryBytes: this.memoryBytes,
      byKind,
      ...this.counts,
      hitRate: lookups === 0 ? 0 : this.counts.hits / lookups,
    };
  }

  /**
   * Fills memory from the durable tier, newest entries first as far as the memory cap allows: a new sign-in's
   * recalculation is then answered from memory, without a read per key. Everything fits in the usual case and
   * is read in one go; otherwise only the newest entries are read. Entries already in memory are newer and stay.
   */
  private async loadMemory(): Promise<void> {
    const store = this.options.store;
    if (!store) return;
    const clears = this.clears;
    const index = await this.index();
    const owns = this.options.owns;
    if (owns) {
      const others = [...index.keys()].filter((key) => !owns(key));
      if (others.length > 0) {
        await this.guard(() => store.deleteMany(others), undefined);
        for (const key of others) index.delete(key);
      }
    }
    const newestFirst = [...index].sort(([, a], [, b]) => b.storedAt - a.storedAt);
    const chosen: string[] = [];
    let bytes = 0;
    for (const [key, meta] of newestFirst) {
      if (bytes + meta.bytes > this.maxMemoryBytes) break;
      bytes += meta.bytes;
      chosen.push(key);
    }
    if (chosen.length === 0) return;
    const values = await this.guard(
      () =>
        chosen.length === index.size && store.allValues ? store.allValues() : this.valuesOf(store, chosen),
      new Map<string, unknown>(),
    );
    if (clears !== this.clears) return;
    const loaded = new Map<string, StoredEntry>();
    for (const key of chosen.reverse()) {
      const meta = index.get(key);
      if (!meta || !values.has(key)) continue;
      loaded.set(key, {
        meta: { kind: meta.kind, storedAt: meta.storedAt, bytes: meta.bytes },
        value: values.get(key),
      });
    }
    // Least recently used first: the loaded entries, then whatever arrived while they were read.
    for (const [key, entry] of this.memory) loaded.set(key, entry);
    this.memory.clear();
    this.memoryBytes = 0;
    for (const [key, entry] of loaded) this.remember(key, entry);
  }

  private async valuesOf(store: PersistentStore, keyList: string[]): Promise<Map<string, unknown>> {
    const entries = await store.getMany(keyList);
    const values = new Map<string, unknown>();
    keyList.forEach((key, position) => {
      const entry = entries[position];
      if (entry) values.set(key, entry.value);
    });
    return values;
  }

  private remember(key: string, entry: StoredEntry): void {
    this.forgetMemory(key);
    this.memory.set(key, entry);
    this.memoryBytes += entry.meta.bytes;
    for (const [oldest] of this.memory) {
      if (this.memoryBytes <= this.maxMemoryBytes || oldest === key) break;
      this.forgetMemory(oldest);
      this.counts.evictions += 1;
    }
  }

  /** Map order is insertion order: re-inserting makes the entry the most recently used. */
  private touchMemory(key: string, entry: StoredEntry): void {
    this.memory.delete(key);
    this.memory.set(key, entry);
  }

  private forgetMemory(key: string): void {
    const entry = this.memory.get(key);
    if (!entry) return;
    this.memory.delete(key);
    this.memoryBytes -= entry.meta.bytes;
  }

  /** The durable tier's index, read once per instance (metadata only, never the values). */
  private index(): Promise<Map<string, IndexEntry>> {
    const store = this.options.store;
    this.storageIndex ??= store
      ? this.guard(() => store.allMeta(), new Map<string, EntryMeta>()).then(
          (metas) => new Map([...metas].map(([key, meta]) => [key, { ...meta, usedAt: meta.storedAt }])),
        )
      : Promise.resolve(new Map());
    return this.storageIndex;
  }

  private async evictStorage(index: Map<string, IndexEntry>): Promise<void> {
    let total = 0;
    for (const entry of index.values()) total += entry.bytes;
    if (total <= this.maxStorageBytes) return;
    const doomed: string[] = [];
    for (const [key, entry] of [...index].sort(([, a], [, b]) => a.usedAt - b.usedAt)) {
      if (total <= this.maxStorageBytes) break;
      total -= entry.bytes;
      doomed.push(key);
      index.delete(key);
      this.forgetMemory(key);
    }
    this.counts.evictions += doomed.length;
    await this.guard(() => this.options.store?.deleteMany(doomed), undefined);
  }

  /** A failing IndexedDB (quota, private mode, blocked upgrade) must never fail a cell: memory carries on. */
  private async guard<T>(operation: () => Promise<T> | undefined, fallback: T): Promise<T> {
    try {
      return (await operation()) ?? fallback;
    } catch {
      this.counts.storageFailures += 1;
      return fallback;
    }
  }
}
