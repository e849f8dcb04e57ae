import { untilAborted } from "./abortableSleep";
import { SharedAbort } from "./sharedAbort";

/** What one dispatch of a batch answers: per key its value or its own error (missing keys fail alone). */
export type BatchAnswer<V> = Map<string, V | Error>;

/**
 * When a batch goes out, given the function that sends it (DataLoader's `batchScheduleFn`): a window after
 * its first request by default, or whatever a test or the host injects (e.g. a stepped clock's timer).
 */
export type BatchSchedule = (dispatch: () => void) => void;

export interface KeyedBatcherOptions<G, K, V> {
  /** How long the first request of a batch waits for others to join it (unless `schedule` says otherwise). */
  windowMs?: number;
  schedule?: BatchSchedule;
  /** The key's identity inside its group: equal strings are one request, asked once. */
  keyOf: (key: K) => string;
  /** Loads every key of one group in as few calls as the loader sees fit. */
  load: (group: G, keys: K[], signal: AbortSignal) => Promise<BatchAnswer<V>>;
}

interface Pending<G, K, V> {
  group: G;
  keys: Map<string, K>;
  waiters: Map<string, { resolve: (value: V) => void; reject: (error: Error) => void }[]>;
  abort: SharedAbort;
}

/**
 * DataLoader-style batching: requests for keys of the same group (same account, same options) that arrive
 * within a short window go out together, each caller gets its own value or its own error, and a caller that
 * cancels stops waiting without cancelling the batch that others share.
 */
export class KeyedBatcher<G, K, V> {
  private readonly pending = new Map<string, Pending<G, K, V>>();
  private readonly schedule: BatchSchedule;

  constructor(private readonly options: KeyedBatcherOptions<G, K, V>) {
    this.schedule = options.schedule ?? ((dispatch) => setTimeout(dispatch, options.windowMs ?? 0));
  }

  load(groupKey: string, group: G, key: K, signal?: AbortSignal): Promise<V> {
    let batch = this.pending.get(groupKey);
    if (!batch) {
      const created: Pending<G, K, V> = {
        group,
        keys: new Map(),
        waiters: new Map(),
        abort: new SharedAbort(),
      };
      batch = created;
      this.pending.set(groupKey, created);
      this.schedule(() => this.dispatch(groupKey, created));
    }
    const id = this.options.keyOf(key);
    batch.keys.set(id, key);
    batch.abort.join(signal);
    const result = new Promise<V>((resolve, reject) => {
      const list = batch.waiters.get(id) ?? [];
      list.push({ resolve, reject });
      batch.waiters.set(id, list);
    });
    result.catch(() => undefined); // a caller that cancelled no longer listens; its key's failure is not global
    return untilAborted(result, signal);
  }

  private dispatch(groupKey: string, batch: Pending<G, K, V>): void {
    if (this.pending.get(groupKey) === batch) this.pending.delete(groupKey);
    const loading = this.options.load(batch.group, [...batch.keys.values()], batch.abort.signal);
    loading.finally(() => batch.abort.release()).catch(() => undefined);
    loading.then(
      (answer) => {
        for (const [id, waiters] of batch.waiters) {
          const value = answer.get(id);
          for (const waiter of waiters) {
            if (value instanceof Error) waiter.reject(value);
            else if (value === undefined)
              waiter.reject(new Error(`The batch loader gave no answer for ${id}.`));
            else waiter.resolve(value);
          }
        }
      },
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const waiters of batch.waiters.values()) for (const waiter of waiters) waiter.reject(failure);
      },
    );
  }
}
