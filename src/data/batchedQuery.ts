import { ApiError } from "../api/errors";
import { asApiError, isUnreachable, oldestAccepted, type CallOptions, type Fetched } from "./fetched";
import { KeyedBatcher, type BatchAnswer } from "./keyedBatcher";
import type { QueryRunner } from "./queryRunner";

/** How one batched endpoint asks for many items of one group (same account, same options) at once. */
export interface BatchSpec<G, I, V> {
  /** Items per network call (the contract's limit); larger sets are split. */
  maxPerCall: number;
  /** How long the first request waits for others to join it. */
  windowMs: number;
  /** The item's identity within its group; the fetched map is keyed by it. */
  itemId: (item: I) => string;
  cacheKey: (group: G, item: I) => string;
  /** One network call for up to maxPerCall items; items missing from the answer were not found. */
  fetch: (group: G, items: I[], signal: AbortSignal) => Promise<Map<string, V>>;
  notFound: (group: G, item: I) => ApiError;
  /** Told after each successful call how many items it returned (quota accounting). */
  onFetched?: (group: G, returned: number) => void;
}

/** One item's answer. `claim()` is true for the first caller only, so a shared fetch is counted once. */
export interface BatchedValue<V> extends Fetched<V> {
  claim: () => boolean;
}

interface Dispatch<G> {
  group: G;
  /** The oldest cached answer this batch's callers accept. */
  since: number;
}

const unclaimable = () => false;

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

  constructor(
    private readonly spec: BatchSpec<G, I, V>,
    private readonly runner: QueryRunner,
  ) {
    this.batcher = new KeyedBatcher({
      windowMs: spec.windowMs,
      keyOf: spec.itemId,
      load: (dispatch, items, signal) => this.load(dispatch, items, signal),
    });
  }

  get(groupKey: string, group: G, item: I, options: CallOptions = {}): Promise<BatchedValue<V>> {
    const since = oldestAccepted(options);
    const hot = this.runner.cache.peekFresh<V | null>(this.spec.cacheKey(group, item), since);
    if (hot) {
      const known = this.fromCache(group, item, hot, "cache");
      return known instanceof ApiError ? Promise.reject(known) : Promise.resolve(known);
    }
    return this.batcher.load(`${since}|${groupKey}`, { group, since }, item, options.signal);
  }

  /**
   * A cached answer as the caller's value. `null` is cached too: the service answered without the item, so it
   * is known not to exist (until the TTL passes) and asking again would only spend a request.
   */
  private fromCache(
    group: G,
    item: I,
    entry: { value: V | null; storedAt: number },
    source: "cache" | "stale",
  ): BatchedValue<V> | ApiError {
    if (entry.value === null) return this.spec.notFound(group, item);
    return { value: entry.value, source, storedAt: entry.storedAt, claim: unclaimable };
  }

  private async load(
    dispatch: Dispatch<G>,
    items: I[],
    signal: AbortSignal,
  ): Promise<BatchAnswer<BatchedValue<V>>> {
    const { group, since } = dispatch;
    const answer: BatchAnswer<BatchedValue<V>> = new Map();
    // Read even when the callers want newer answers: stored values are the fallback if the service is unreachable.
    const cached = await this.runner.cache.getMany<V | null>(
      items.map((item) => this.spec.cacheKey(group, item)),
    );
    const borrowed: { item: I; flight: Promise<BatchedValue<V> | ApiError> }[] = [];
    const toFetch: I[] = [];
    for (const item of items) {
      const key = this.spec.cacheKey(group, item);
      const hit = cached.get(key);
      const flight = this.inFlight.get(key);
      if (hit?.fresh && hit.storedAt >= since) {
        answer.set(this.spec.itemId(item), this.fromCache(group, item, hit, "cache"));
      } else if (flight) {
        borrowed.push({ item, flight });
      } else {
        toFetch.push(item);
      }
    }
    // An earlier batch's call for an item is awaited, not repeated; if all of that batch's callers
    // cancelled it, this batch (whose callers still wait) asks for the item itself.
    const orphaned: I[] = [];
    await Promise.all([
      this.fetchInChunks(group, toFetch, signal, cached, answer),
      ...borrowed.map(async ({ item, flight }) => {
        const result = await flight;
        if (result instanceof ApiError && result.kind === "cancelled" && !signal.aborted) orphaned.push(item);
        else answer.set(this.spec.itemId(item), result);
      }),
    ]);
    await this.fetchInChunks(group, orphaned, signal, cached, answer);
    return answer;
  }

  /** Fetches `items` in calls of at most maxPerCall, registering each item as in flight until it settles. */
  private async fetchInChunks(
    group: G,
    items: I[],
    signal: AbortSignal,
    cached: Map<string, { value: V | null; storedAt: number }>,
    answer: BatchAnswer<BatchedValue<V>>,
  ): Promise<void> {
    const waits: Promise<void>[] = [];
    for (let start = 0; start < items.length; start += this.spec.maxPerCall) {
      const chunk = items.slice(start, start + this.spec.maxPerCall);
      const results = this.fetchChunk(group, chunk, signal, cached);
      for (const item of chunk) {
        const id = this.spec.itemId(item);
        const key = this.spec.cacheKey(group, item);
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
    group: G,
    chunk: I[],
    signal: AbortSignal,
    cached: Map<string, { value: V | null; storedAt: number }>,
  ): Promise<Map<string, BatchedValue<V> | ApiError>> {
    const byId = new Map<string, BatchedValue<V> | ApiError>();
    try {
      const found = await this.spec.fetch(group, chunk, signal);
      this.spec.onFetched?.(group, found.size);
      const storedAt = await this.runner.cache.setMany(
        chunk.map((item) => ({
          key: this.spec.cacheKey(group, item),
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
      for (const item of chunk) {
        const last = cached.get(this.spec.cacheKey(group, item));
        if (last && isUnreachable(error)) {
          this.runner.cache.noteStaleServed();
          byId.set(this.spec.itemId(item), this.fromCache(group, item, last, "stale"));
        } else {
          byId.set(this.spec.itemId(item), error);
        }
      }
    }
    return byId;
  }
}
