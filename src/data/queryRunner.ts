import type { ServiceClient, TypedSend } from "../api/client";
import { requestKey, type RequestIdentity } from "./cacheKey";
import { isUnreachable, oldestAccepted, type CallOptions, type Fetched } from "./fetched";
import { RequestCoalescer } from "./requestCoalescer";
import type { RequestExecutor } from "./requestExecutor";
import type { ResponseCache } from "./responseCache";

/** A request described by everything but the caller, who is the runner's. */
export type QueryIdentity = Omit<RequestIdentity, "caller">;

/**
 * The path of every read: fresh cache entry, else one coalesced network call (paced, retried) whose answer is
 * cached, else, when the service cannot be reached, the last known value flagged as stale.
 */
export class QueryRunner {
  private readonly coalescer = new RequestCoalescer();

  constructor(
    readonly client: ServiceClient,
    readonly cache: ResponseCache,
    readonly executor: RequestExecutor,
    /** Whose answers these are (client id): part of every key, since tiers see different fields. */
    readonly caller: string,
  ) {}

  key(identity: QueryIdentity): string {
    return requestKey({ ...identity, caller: this.caller });
  }

  /** Callers that shared a call someone else had started. */
  get coalesced(): number {
    return this.coalescer.shared;
  }

  /** One network request through the gate with retries; `idempotent: false` for job submission. */
  network<T>(send: TypedSend<T>, signal: AbortSignal, idempotent = true): Promise<T> {
    return this.executor.run(
      { idempotent, send: (attemptSignal) => this.client.call(send, attemptSignal) },
      signal,
    );
  }

  async query<T>(
    identity: QueryIdentity,
    send: TypedSend<T>,
    options: CallOptions = {},
  ): Promise<Fetched<T>> {
    const key = this.key(identity);
    const since = oldestAccepted(options);
    const hot = this.cache.peekFresh<T>(key, since);
    if (hot) return { value: hot.value, source: "cache", storedAt: hot.storedAt };
    const flightKey = `${since}|${key}`;
    return this.coalescer.run(flightKey, options.signal, async (signal) => {
      const cached = await this.cache.get<T>(key);
      if (cached?.fresh && cached.storedAt >= since)
        return { value: cached.value, source: "cache", storedAt: cached.storedAt };
      try {
        const value = await this.network(send, signal);
        const storedAt = await this.cache.setMany([{ key, value }]);
        return { value, source: "network", storedAt };
      } catch (error) {
        if (cached && isUnreachable(error)) {
          this.cache.noteStaleServed();
          return { value: cached.value, source: "stale", storedAt: cached.storedAt };
        }
        throw error;
      }
    });
  }
}
