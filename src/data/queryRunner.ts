import type { ServiceClient, TypedSend } from "../api/client";
import { ApiError } from "../api/errors";
import { abortReason } from "./abortableSleep";
import { dataDateOf } from "./answerTrail";
import { kindOfKey, requestKey, type RequestIdentity } from "./cacheKey";
import {
  asApiError,
  isUnreachable,
  oldestAccepted,
  type AnswerSource,
  type CallOptions,
  type Fetched,
} from "./fetched";
import { RequestCoalescer } from "./requestCoalescer";
import type { RequestExecutor } from "./requestExecutor";
import { keepsEarlierAnswer } from "./refreshPass";
import type { CachedValue, ResponseCache } from "./responseCache";

/** A request described by everything but the caller, who is the runner's. */
export type QueryIdentity = Omit<RequestIdentity, "caller">;

/**
 * The path of every read: fresh cache entry, else one coalesced network call (paced, retried) whose answer is
 * cached (a "not found" too), else, when the service cannot be reached, the last known value flagged as stale,
 * and during a refresh, whatever kept it from a new answer, the earlier one flagged as kept.
 */
export class QueryRunner {
  private readonly coalescer = new RequestCoalescer();
  private readonly ending = new AbortController();

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

  /** After sign-out: a request still waiting for its turn is refused rather than sent with the ended sign-in's token. */
  close(): void {
    this.ending.abort(new ApiError("unauthorized", SIGNED_OUT));
  }

  /**
   * Aborted at sign-out, with "signed out" as its reason: what follows something for this sign-in over minutes
   * (an export job's polls) ends then, instead of waking later only to be refused.
   */
  get closed(): AbortSignal {
    return this.ending.signal;
  }

  /** One network request through the gate with retries; `idempotent: false` for job submission. */
  network<T>(send: TypedSend<T>, signal: AbortSignal, idempotent = true): Promise<T> {
    return this.executor.run(
      {
        idempotent,
        send: (attemptSignal) => {
          if (this.closed.aborted) return Promise.reject(abortReason(this.closed));
          return this.client.call(send, attemptSignal);
        },
      },
      signal,
    );
  }

  query<T>(identity: QueryIdentity, send: TypedSend<T>, options: CallOptions = {}): Promise<Fetched<T>> {
    return this.queryWith(identity, (signal) => this.network(send, signal), options);
  }

  /**
   * Like `query`, for a value that takes several requests (all pages of a list): `load` sends each through
   * `network`, so each is paced and retried on its own, and the whole value is cached under one key.
   */
  async queryWith<T>(
    identity: QueryIdentity,
    load: (signal: AbortSignal) => Promise<T>,
    options: CallOptions = {},
  ): Promise<Fetched<T>> {
    const key = this.key(identity);
    const since = oldestAccepted(options);
    const hot = this.cache.peekFresh<T | NotFoundRecord>(key, since);
    if (hot) return this.noted(key, answerFrom(hot, "cache"), options);
    const flightKey = `${since}|${key}`;
    const answer = await this.coalescer
      .run<Fetched<T>>(flightKey, options.signal, async (signal) => {
        const cached = await this.cache.get<T | NotFoundRecord>(key);
        if (cached && this.cache.serves(key, cached, since)) return answerFrom(cached, "cache");
        try {
          const value = await load(signal);
          const storedAt = await this.cache.setMany([{ key, value }]);
          return { value, source: "network", storedAt };
        } catch (error) {
          if (error instanceof ApiError && error.kind === "not_found") {
            await this.cache.setMany([
              { key, value: { [NOT_FOUND]: error.message } satisfies NotFoundRecord },
            ]);
          } else if (cached && isUnreachable(error)) {
            this.cache.noteStaleServed();
            return { ...answerFrom(cached, "stale"), reason: asApiError(error).message };
          } else if (cached && options.refresh && keepsEarlierAnswer(error)) {
            return { ...answerFrom(cached, "kept"), reason: asApiError(error).message };
          }
          throw error;
        }
      })
      .catch((error: unknown) => {
        options.refresh?.noteFailure(key, error, false);
        throw error;
      });
    return this.noted(key, answer, options);
  }

  /** Tells the call's trail (if it keeps one) and its refresh (if it belongs to one) of an answer under `key`. */
  noted<A extends { value: unknown; source: AnswerSource; storedAt: number; reason?: string }>(
    key: string,
    answer: A,
    options: CallOptions,
  ): A {
    options.trail?.note(key, {
      kind: kindOfKey(key),
      source: answer.source,
      storedAt: answer.storedAt,
      freshUntil: this.cache.freshUntil(key, answer.storedAt),
      dataDate: dataDateOf(answer.value),
      reason: answer.reason,
    });
    const refresh = options.refresh;
    if (!refresh) return answer;
    if (answer.source === "stale" || answer.source === "kept") refresh.note(key, "held", answer.reason);
    else refresh.note(key, answer.storedAt >= refresh.startedAt ? "fresh" : "current");
    return answer;
  }
}

const SIGNED_OUT = "Signed out: open the Rent Market pane (Home tab) and sign in.";

/**
 * What the cache holds for a request the service answered with "not found": asking again before the TTL
 * passes would only spend a request on the same answer. The member name cannot occur in a service body.
 */
const NOT_FOUND = "rent-market:not-found";
type NotFoundRecord = { [NOT_FOUND]: string };

function isNotFoundRecord(value: unknown): value is NotFoundRecord {
  return typeof value === "object" && value !== null && NOT_FOUND in value;
}

/** A cached entry as the caller's answer, or the not-found error it records. */
function answerFrom<T>(
  entry: CachedValue<T | NotFoundRecord>,
  source: "cache" | "stale" | "kept",
): Fetched<T> {
  if (isNotFoundRecord(entry.value)) throw new ApiError("not_found", entry.value[NOT_FOUND]);
  return { value: entry.value, source, storedAt: entry.storedAt };
}
