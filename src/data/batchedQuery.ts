import { ApiError } from "../api/errors";
import { asApiError, isUnreachable, oldestAccepted, type CallOptions, type Fetched } from "./fetched";
import { KeyedBatcher, type BatchAnswer, type BatchSchedule } from "./keyedBatcher";
import type { QueryRunner } from "./queryRunner";
import { keepsEarlierAnswer, type RefreshPass } from "./refreshPass";

/** How one batched endpoint asks for many items of one group (same account, same options) at once. */
export interface BatchSpec<G, I, V> {
  /** Items per network call (the contract's limit); larger sets are split. */
  maxPerCall: number;
  /** When a batch goes out after its first request (a short window by default, see DataLayer). */
  schedule: BatchSchedule;
  /**
   * The item's identity within its group; the fetched map is keyed by it. With the group's key it must decide
   * `cacheKey`, which is memoised by the two.
   */
  itemId: (item: I) => string;
  cacheKey: (group: G, item: I) => string;
  /** One network call for up to maxPerCall items; items missing from the answer were not found. */
  fetch: (group: G, items: I[], signal: AbortSignal) => Promise<Map<string, V>>;
  notFound: (group: G, item: I) => ApiError;
  /** Told after each successful call how many items it returned (quota accounting). */
  onFetched?: (group: G, returned: number) => void;
  /**
   * Asked before a batch's calls go out with the items it would fetch; throwing holds them all, each failing
   * with that error and nothing sent (the bulk export quota guard).
   */
  beforeFetch?: (group: G, items: readonly I[]) => void;
  /** Told when a call fails (the quota guard learns the limit and usage from the service's quota error). */
  onFailed?: (group: G, error: ApiError) => void;
}

/** One item's answer. `claim()` is true for the first caller only, so a shared fetch is counted once. */
export interface BatchedValue<V> extends Fetched<V> {
  claim: () => boolean;
}

interface Dispatch<G> {
  groupKey: string;
  group: G;
  /** The oldest cached answer this batch's callers accept. */
  since: number;
  /** The refresh its callers belong to: an item it cannot get anew keeps its earlier answer. */
  refresh?: RefreshPass;
}

const unclaimable = () => false;

/** Memoised cache keys held at most, across groups: past it they are forgotten and built again. */
const MAX_MEMOISED_KEYS = 100_000;

function claimOnce(): () => boolean {
  let claimed = false;
  return () => {
    if (claimed) return false;
    claimed = true;
    return true;
  };
}

/**
 * Batched, cached, coalesced reads of one endpoint: items asked for within the window are read from the cache
 * in one go (getMany); items already being fetched by an earlier batch are awaited, not asked again; the rest
 * go out in calls of at most maxPerCall. Each caller gets its own value or error; when the service cannot be
 * reached, items with a last known value get it, flagged stale.
 */
export class BatchedQuery<G, I, V> {
  private readonly batcher: KeyedBatcher<Dispatch<G>, I, BatchedValue<V>>;
  private readonly inFlight = new Map<string, Promise<BatchedValue<V> | ApiError>>();
  /**
   * Cache keys by group key, then item id: a recalculation asks for the same items again and again, and building
   * a key (canonical JSON) costs more than the memory lookup it is for.
   */
  private readonly keys = new Map<string, Map<string, string>>();
  private memoisedKeys = 0;

  constructor(
    private readonly spec: BatchSpec<G, I, V>,
    private readonly runner: QueryRunner,
  ) {
    this.batcher = new KeyedBatcher({
      schedule: spec.schedule,
      keyOf: spec.itemId,
      load: (dispatch, items, signal) => this.load(dispatch, items, signal),
    });
  }

  /**
   * `groupKey` names the group: equal keys must mean equal groups (it batches them and keys the memoised cache
   * keys).
   */
  get(groupKey: string, group: G, item: I, options: CallOptions = {}): Promise<BatchedValue<V>> {
    const known = this.peek(groupKey, group, item, options);
    if (known) return known instanceof ApiError ? Promise.reject(known) : Promise.resolve(known);
    const since = oldestAccepted(options);
    const loading = this.batcher.load(
      `${since}|${groupKey}`,
      { groupKey, group, since, refresh: options.refresh },
      item,
      options.signal,
    );
    if (!options.trail && !options.refresh) return loading;
    const key = this.cacheKey(groupKey, group, item);
    return loading.then(
      (answer) => this.runner.noted(key, answer, options),
      (error: unknown) => {
        options.refresh?.noteFailure(key, error, false);
        throw error;
      },
    );
  }

  /**
   * The item's answer when memory holds a fresh one the caller accepts (its value, or its not-found error),
   * else undefined: no promise, signal or batch for what a recalculation finds in memory.
   */
  peek(
    groupKey: string,
    group: G,
    item: I,
    options: CallOptions = {},
  ): BatchedValue<V> | ApiError | undefined {
    const key = this.cacheKey(groupKey, group, item);
    const hot = this.runner.cache.peekFresh<V | null>(key, oldestAccepted(options));
    if (!hot) return undefined;
    const known = this.fromCache(group, item, hot, "cache");
    if (known instanceof ApiError || (!options.trail && !options.refresh)) return known;
    return this.runner.noted(key, known, options);
  }

  /**
   * Stores items' values that another answer carried (DataLoader's `prime`): a later request for one of them
   * is answered from the cache.
   */
  async prime(groupKey: string, group: G, entries: readonly (readonly [I, V])[]): Promise<void> {
    if (entries.length === 0) return;
    await this.runner.cache.setMany(
      entries.map(([item, value]) => ({ key: this.cacheKey(groupKey, group, item), value })),
    );
  }

  private keyIn(dispatch: Dispatch<G>, item: I): string {
    return this.cacheKey(dispatch.groupKey, dispatch.group, item);
  }

  private cacheKey(groupKey: string, group: G, item: I): string {
    const id = this.spec.itemId(item);
    const known = this.keys.get(groupKey)?.get(id);
    if (known !== undefined) return known;
    if (this.memoisedKeys >= MAX_MEMOISED_KEYS) {
      this.keys.clear();
      this.memoisedKeys = 0;
    }
    const key = this.spec.cacheKey(group, item);
    let byItem = this.keys.get(groupKey);
    if (!byItem) {
      byItem = new Map();
      this.keys.set(groupKey, byItem);
    }
    byItem.set(id, key);
    this.memoisedKeys += 1;
    return key;
  }

  /**
   * A cached answer as the caller's value. `null` is cached too: the service answered without the item, so it
   * is known not to exist (until the TTL passes) and asking again would only spend a request.
   */
  private fromCache(
    group: G,
    item: I,
    entry: { value: V | null; storedAt: number },
    source: "cache" | "stale" | "kept",
    reason?: string,
  ): BatchedValue<V> | ApiError {
    if (entry.value === null) return this.spec.notFound(group, item);
    const answer = { value: entry.value, source, storedAt: entry.storedAt, claim: unclaimable };
    return reason === undefined ? answer : { ...answer, reason };
  }

  /**
   * An item whose request failed with `error`: its last known value when the service could not be reached
   * (stale), its earlier answer when a refresh could not get a new one (kept), else the error.
   */
  private failedItem(
    dispatch: Dispatch<G>,
    item: I,
    error: ApiError,
    last: { value: V | null; storedAt: number } | undefined,
  ): BatchedValue<V> | ApiError {
    if (!last) return error;
    if (isUnreachable(error)) {
      this.runner.cache.noteStaleServed();
      return this.fromCache(dispatch.group, item, last, "stale", error.message);
    }
    if (dispatch.refresh && keepsEarlierAnswer(error))
      return this.fromCache(dispatch.group, item, last, "kept", error.message);
    return error;
  }

  private async load(
    dispatch: Dispatch<G>,
    items: I[],
    signal: AbortSignal,
  ): Promise<BatchAnswer<BatchedValue<V>>> {
    const { group, since } = dispatch;
    const answer: BatchAnswer<BatchedValue<V>> = new Map();
    // Read even when the callers want newer answers: stored values are the fallback if the service is unreachable.
    const cached = await this.runner.cache.getMany<V | null>(items.map((item) => this.keyIn(dispatch, item)));
    const borrowed: { item: I; flight: Promise<BatchedValue<V> | ApiError> }[] = [];
    let toFetch: I[] = [];
    for (const item of items) {
      const key = this.keyIn(dispatch, item);
      const hit = cached.get(key);
      const flight = this.inFlight.get(key);
      if (hit && this.runner.cache.serves(key, hit, since)) {
        answer.set(this.spec.itemId(item), this.fromCache(group, item, hit, "cache"));
      } else if (flight) {
        borrowed.push({ item, flight });
      } else {
        toFetch.push(item);
      }
    }
    try {
      if (toFetch.length > 0) this.spec.beforeFetch?.(group, toFetch);
    } catch (caught) {
      const held = asApiError(caught);
      for (const item of toFetch)
        answer.set(
          this.spec.itemId(item),
          this.failedItem(dispatch, item, held, cached.get(this.keyIn(dispatch, item))),
        );
      toFetch = [];
    }
    // An earlier batch's call for an item is awaited, not repeated; if all of that batch's callers
    // cancelled it, this batch (whose callers still wait) asks for the item itself.
    const orphaned: I[] = [];
    await Promise.all([
      this.fetchInChunks(dispatch, toFetch, signal, cached, answer),
      ...borrowed.map(async ({ item, flight }) => {
        const result = await flight;
        if (result instanceof ApiError && result.kind === "cancelled" && !signal.aborted) orphaned.push(item);
        else answer.set(this.spec.itemId(item), result);
      }),
    ]);
    await this.fetchInChunks(dispatch, orphaned, signal, cached, answer);
    return answer;
  }

  /** Fetches `items` in calls of at most maxPerCall, registering each item as in flight until it settles. */
  private async fetchInChunks(
    dispatch: Dispatch<G>,
    items: I[],
    signal: AbortSignal,
    cached: Map<string, { value: V | null; storedAt: number }>,
    answer: BatchAnswer<BatchedValue<V>>,
  ): Promise<void> {
    const waits: Promise<void>[] = [];
    for (let start = 0; start < items.length; start += this.spec.maxPerCall) {
      const chunk = items.slice(start, start + this.spec.maxPerCall);
      const results = this.fetchChunk(dispatch, chunk, signal, cached);
      for (const item of chunk) {
        const id = this.spec.itemId(item);
        const key = this.keyIn(dispatch, item);
        const result = results.then((byId) => byId.get(id) as BatchedValue<V> | ApiError);
        this.inFlight.set(key, result);
        waits.push(
          result.then((value) => {
            answer.set(id, value);
            if (this.inFlight.get(key) === result) this.inFlight.delete(key);
          }),
        );
      }
    }
    await Promise.all(waits);
  }

  /** One call for `chunk`; never rejects: every item gets its value or its error. */
  private async fetchChunk(
    dispatch: Dispatch<G>,
    chunk: I[],
    signal: AbortSignal,
    cached: Map<string, { value: V | null; storedAt: number }>,
  ): Promise<Map<string, BatchedValue<V> | ApiError>> {
    const { group } = dispatch;
    const byId = new Map<string, BatchedValue<V> | ApiError>();
    try {
      const found = await this.spec.fetch(group, chunk, signal);
      this.spec.onFetched?.(group, found.size);
      const storedAt = await this.runner.cache.setMany(
        chunk.map((item) => ({
          key: this.keyIn(dispatch, item),
          value: found.get(this.spec.itemId(item)) ?? null,
        })),
      );
      for (const item of chunk) {
        const id = this.spec.itemId(item);
        const value = found.get(id);
        byId.set(
          id,
          value === undefined
            ? this.spec.notFound(group, item)
            : { value, source: "network", storedAt, claim: claimOnce() },
        );
      }
    } catch (caught) {
      const error = asApiError(caught);
      this.spec.onFailed?.(group, error);
      for (const item of chunk)
        byId.set(
          this.spec.itemId(item),
          this.failedItem(dispatch, item, error, cached.get(this.keyIn(dispatch, item))),
        );
    }
    return byId;
  }
}
