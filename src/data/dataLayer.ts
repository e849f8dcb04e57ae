import type { ServiceClient, TypedSend } from "../api/client";
import { ApiError } from "../api/errors";
import { operationById } from "../api/operations";
import { collectPages } from "../api/paging";
import { readAnswer } from "../api/readers/answerForm";
import type { Sleep } from "./abortableSleep";
import type { BatchedEndpoint } from "./batchedEndpoints";
import { BatchedReads, type BatchedAnswers } from "./batchedReads";
import { FreshnessSchedule } from "./freshnessSchedule";
import type { CacheKind } from "./cachePolicy";
import { isKeyOf } from "./cacheKey";
import { ACCOUNTS, sendOperation, type Account, type Endpoint } from "./endpoints";
import type { AccountCallOptions, CallOptions, Fetched } from "./fetched";
import type { BatchSchedule } from "./keyedBatcher";
import { openPersistentStore, removeDatabases } from "./persistentStore";
import { BulkExportQuotaGuard, type QuotaGuardSettings } from "./quotaGuard";
import { QueryRunner } from "./queryRunner";
import type { Gate } from "./gate";
import { RequestExecutor } from "./requestExecutor";
import { RequestGate, type GateLimit, type PacingProgress } from "./requestGate";
import { ResponseCache, type CacheStats, type ResponseCacheOptions } from "./responseCache";
import { DEFAULT_RETRY, type RetryOptions } from "./retryPolicy";
import { ExportJobsUnderWay, type ExportJobsState } from "./exportJobsUnderWay";
import type { PacingOptions } from "./tokenBucket";

export type {
  Account,
  CreateJobBody,
  ExploreMarketsQuery,
  FloorPlanFilters,
  GeoSearchBody,
  LookupQuery,
  PropertySearchBody,
  UnitFilters,
} from "./endpoints";
export type {
  ForecastAggregation,
  MarketAttributes,
  MarketOptions,
  PropertyAttributes,
} from "./batchedEndpoints";
export type { ForecastQuery, ForecastSeries, ForecastTarget } from "./forecastSeries";

/** Options of a row's call: the caller's signal and freshness, and the account it acts for (if any). */
export type RowCallOptions = CallOptions & { accountId?: number };

const JOB_RESULTS = operationById("getBulkJobResults");

/** How long a batch waits for more cells' requests to join it, unless told (`batchWindowMs`). */
export const DEFAULT_BATCH_WINDOW_MS = 10;

export interface DataLayerOptions {
  client: ServiceClient;
  /** Who signed in (the client id): part of every cache key, since tiers see different fields. */
  caller: string;
  /** The cache to use; by default memory in front of IndexedDB database `databaseName` (memory only without it). */
  cache?: ResponseCache;
  databaseName?: string;
  cacheOptions?: Omit<ResponseCacheOptions, "store">;
  /**
   * The door every request goes through (the team relay's team gate). Without it, the add-in's own pacing
   * (`RequestGate`, set by the next three options), whose progress the pane shows.
   */
  gate?: Gate;
  /** Client-side pacing; defaults to the live limit (100 requests / 5 min, bursts of 50). */
  pacing?: PacingOptions;
  maxInFlight?: number;
  /** Longest wait for the service's limit a request sits out before it fails "rate limited until HH:MM". */
  longestRateLimitWaitMs?: number;
  retry?: Partial<RetryOptions>;
  /** How long a batch waits for more requests to join it. */
  batchWindowMs?: number;
  /** When a batch goes out (DataLoader's batchScheduleFn); by default `batchWindowMs` after its first request. */
  batchSchedule?: BatchSchedule;
  /** The bulk export quota guard's settings (share one pull may spend, the account's quota if known). */
  quotaGuard?: Partial<QuotaGuardSettings>;
  /** When the service posts each day's data, "HH:MM" US Eastern (07:00 unless the vendor moves it). */
  postingTime?: string;
  now?: () => number;
  sleep?: Sleep;
  random?: () => number;
}

export interface DataLayerStats {
  cache: CacheStats;
  requests: {
    attempts: number;
    retries: number;
    rateLimitWaits: number;
    /** Times a request waited for its turn at the pacing (no 429 needed: the pacing kept under the limit). */
    pacedWaits: number;
    gatePauses: number;
    coalesced: number;
    /** The pacing in force: the documented limit, or the one the service announced. */
    limit: GateLimit;
    /** Until when (epoch ms) every request fails at once because the service asked for a long wait. */
    rateLimitedUntilMs?: number;
    /** The pull under way: what waits, done of total, the time left at the pacing (RequestGate.progress). */
    pacing: PacingProgress;
  };
  /** Properties returned by bulk details and property search per account, as the service counts them toward the quota. */
  bulkExportUsage: Record<number, number>;
}

/** What the sign-in's cells and pane wait for: requests at the service's pace, and export jobs. */
export interface WorkUnderWay {
  requests: PacingProgress;
  exportJobs: ExportJobsState;
}

/**
 * The IndexedDB database of cached answers. Its name changes when what is stored changes meaning: "-v2" since
 * percents are kept as fractions (answers stored before held some in points).
 */
export const DEFAULT_DATABASE_NAME = "rent-market-cache-v2";

/** Databases of earlier versions, removed when the default one is opened. */
export const RETIRED_DATABASE_NAMES = ["rent-market-cache"] as const;

/**
 * The one data layer of a sign-in: every read of the functions and the task pane goes through it. It knows
 * HTTP only through the typed client and nothing of Excel; it runs in the browser and in Node.
 */
export class DataLayer {
  readonly cache: ResponseCache;
  /** The add-in's own pacing, when the requests go through it (not when another gate was given). */
  private readonly pacing: RequestGate | undefined;
  private readonly executor: RequestExecutor;
  private readonly runner: QueryRunner;
  private readonly batched: BatchedReads;
  private readonly now: () => number;
  /** Holds pulls that would spend too much of the bulk export quota; counts what was spent. */
  readonly quota: BulkExportQuotaGuard;
  /** The export jobs followed for cells (RENT.HISTORY), for the pane's progress. */
  readonly exportJobs: ExportJobsUnderWay;

  constructor(options: DataLayerOptions) {
    this.now = options.now ?? Date.now;
    this.quota = new BulkExportQuotaGuard(options.quotaGuard);
    this.exportJobs = new ExportJobsUnderWay(this.now);
    if (!options.cache && options.databaseName === undefined) removeDatabases(RETIRED_DATABASE_NAMES);
    this.cache =
      options.cache ??
      new ResponseCache({
        ...options.cacheOptions,
        now: options.cacheOptions?.now ?? this.now,
        schedule: options.cacheOptions?.schedule ?? new FreshnessSchedule(options.postingTime),
        store: openPersistentStore(options.databaseName ?? DEFAULT_DATABASE_NAME),
        preload: true,
        owns: (key) => isKeyOf(key, options.caller),
      });
    let gate = options.gate;
    if (!gate) {
      const pacing = new RequestGate({
        pacing: options.pacing,
        maxInFlight: options.maxInFlight,
        longestWaitMs: options.longestRateLimitWaitMs,
        now: this.now,
        sleep: options.sleep,
      });
      options.client.onAnnouncedLimit((limit) => pacing.adopt(limit));
      this.pacing = gate = pacing;
    }
    this.executor = new RequestExecutor(
      gate,
      { ...DEFAULT_RETRY, ...options.retry },
      options.sleep,
      options.random,
    );
    this.runner = new QueryRunner(options.client, this.cache, this.executor, options.caller);
    const windowMs = options.batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS;
    const schedule: BatchSchedule = options.batchSchedule ?? ((dispatch) => setTimeout(dispatch, windowMs));
    this.batched = new BatchedReads(this.runner, { schedule, quota: this.quota, now: this.now });
  }

  private get api() {
    return this.runner.client.api;
  }

  /**
   * Any cached row of the table (src/data/endpoints.ts): the fresh cached answer, else one coalesced request
   * through the gate (paced, retried), read by the row's reader and cached under the row's kind.
   */
  read<P, T>(
    endpoint: Endpoint<P, T, unknown>,
    params: P,
    options: RowCallOptions = {},
  ): Promise<Fetched<T>> {
    return this.runner.queryWith(
      this.identity(endpoint, params, options.accountId),
      (signal) => this.sendRow(endpoint, params, options.accountId, signal),
      options,
    );
  }

  /**
   * Every item of a paged row (or the first `bound.maxItems`), page by page through `read`'s path, cached as
   * one value. Paging ends as collectPages decides (short page, total_pages, a repeated page, a bound).
   */
  readAll<P, T, Item>(
    endpoint: Endpoint<P, T, Item>,
    params: P,
    options: RowCallOptions = {},
    bound: { maxItems?: number; perPage?: number } = {},
  ): Promise<Fetched<Item[]>> {
    const paging = endpoint.paging;
    if (!paging) throw new Error(`${endpoint.operation.operationId} is not a paged row`);
    const perPage = Math.min(paging.perPage, bound.perPage ?? Number.POSITIVE_INFINITY);
    if (!Number.isFinite(perPage)) throw new Error(`${endpoint.operation.operationId} needs a page size`);
    const maxPages = Math.min(
      paging.maxPages,
      bound.maxItems === undefined ? Number.POSITIVE_INFINITY : Math.ceil(bound.maxItems / perPage),
    );
    const keyed = bound.maxItems === undefined && bound.perPage === undefined ? params : { params, bound };
    return this.runner.queryWith(
      this.identity(endpoint, keyed, options.accountId),
      async (signal) => {
        const { items } = await collectPages(
          async (page) =>
            paging.page(
              await this.sendRow(
                endpoint,
                paging.pageParams(params, page, perPage),
                options.accountId,
                signal,
                // The whole pull (its bound) is weighed against the quota before its first page goes.
                page === 1 ? (bound.maxItems ?? perPage) : perPage,
              ),
            ),
          { what: paging.what, perPage, maxItems: bound.maxItems, maxPages },
        );
        return [...items];
      },
      options,
    );
  }

  /** A row never cached (export jobs: they move): one request through the gate. */
  send<P, T>(endpoint: Endpoint<P, T, unknown>, params: P, signal?: AbortSignal): Promise<T> {
    return this.sendRow(endpoint, params, undefined, signal ?? new AbortController().signal);
  }

  /**
   * A request the table's rows cannot describe (the export file's redirect), sent through the same gate,
   * retries and sign-out as every other: this layer is the one door to the service.
   */
  through<T>(send: TypedSend<T>, signal?: AbortSignal): Promise<T> {
    return this.runner.network(send, signal ?? new AbortController().signal);
  }

  /** The URL the contract's paths are under, for a request `through` builds itself. */
  get apiBase(): string {
    return this.runner.client.apiBase;
  }

  /**
   * The runner under every read of this data layer, for a caller whose reads come in other shapes (the team
   * relay's forwarded answers), so that freshness, coalescing, not-found and stale-if-offline rules are these.
   */
  get queries(): QueryRunner {
    return this.runner;
  }

  /** Every account this sign-in may act for: all pages (each a paced request), cached as one value. */
  accounts(options: CallOptions = {}): Promise<Fetched<Account[]>> {
    return this.readAll(ACCOUNTS, {}, options);
  }

  /**
   * Items of a batched row (src/data/batchedEndpoints.ts) when memory holds every one (a recalculation), else
   * undefined: answered there and then, so a cell that needs nothing else finishes without waiting.
   */
  knownMany<P, I, V>(
    row: BatchedEndpoint<P, I, V>,
    params: P,
    items: readonly I[],
    options: AccountCallOptions,
  ): BatchedAnswers<I, V> | undefined {
    return this.batched.known(row, params, items, options);
  }

  /**
   * Items of any batched row, each its own value or error: batched with every other caller's items of the same
   * row, parameters and account (DataLoader-style, as `batchSchedule` says), cached per item.
   */
  readMany<P, I, V>(
    row: BatchedEndpoint<P, I, V>,
    params: P,
    items: readonly I[],
    options: AccountCallOptions,
  ): Promise<BatchedAnswers<I, V>> {
    return this.batched.read(row, params, items, options);
  }

  /**
   * The file of a succeeded job. The service answers with a redirect to a signed download URL on another
   * origin; fetch follows it and, the origin being different, drops the Authorization header (Fetch standard),
   * so the token never reaches the download host, which would refuse it anyway.
   */
  jobResults(jobId: string, signal?: AbortSignal): Promise<ArrayBuffer> {
    return this.through(
      (context) =>
        sendOperation<ArrayBuffer>(this.api, JOB_RESULTS, {
          ...context,
          params: { path: { job_id: jobId } },
          parseAs: "arrayBuffer",
        }),
      signal,
    );
  }

  /** The cache key's parts of a row's request: its kind and path from the table, the caller's parameters. */
  private identity(
    endpoint: Pick<Endpoint<never, unknown>, "operation">,
    params: unknown,
    accountId?: number,
  ) {
    const { cacheKind, operationId, path } = endpoint.operation;
    if (!cacheKind) throw new Error(`${operationId} is never cached: send it instead`);
    return { kind: cacheKind, accountId, endpoint: path, params };
  }

  /** One request of a row through the gate, its answer read, its quota and the details it carries noted. */
  private async sendRow<P, T>(
    endpoint: Endpoint<P, T, unknown>,
    params: P,
    accountId: number | undefined,
    signal: AbortSignal,
    /** What the pull this request belongs to may spend of the bulk export quota: its page size unless told. */
    quotaPull?: number,
  ): Promise<T> {
    const { operation } = endpoint;
    if (operation.reach.kind === "account" && accountId === undefined)
      throw new ApiError("invalid_input", `${operation.operationId} acts for an account: name one.`);
    const spendsQuota = operation.spendsPropertyQuota && accountId !== undefined;
    if (spendsQuota) this.quota.check(accountId, quotaPull ?? pageSizeOf(params));
    const answer = await this.runner
      .network(
        (context) =>
          readAnswer(
            endpoint.reader,
            sendOperation(this.api, operation, { ...context, ...endpoint.request(params, accountId) }),
          ),
        signal,
        !endpoint.sendOnce,
      )
      .catch((error: unknown) => {
        // The quota error names the account's limit and usage: the guard learns them.
        if (spendsQuota) this.quota.learn(accountId, error);
        throw error;
      });
    if (accountId !== undefined) {
      // Counted here, once per answer received, not once per caller sharing it.
      if (spendsQuota && endpoint.propertiesIn) this.quota.spent(accountId, endpoint.propertiesIn(answer));
      // Items of a batched row the answer carries: kept, so asking for one later costs no request (nor quota).
      if (endpoint.primes)
        await endpoint.primes(answer, (row, params, entries) =>
          this.batched.prime(row, params, accountId, entries),
        );
    }
    return answer;
  }

  /**
   * Requests waiting in the pacing or on the wire (and of those, on the wire), how long ago the last went out
   * and the last was answered (RequestGate.backlog).
   */
  pacingBacklog(): {
    pending: number;
    onTheWire: number;
    sinceLastGrantMs: number;
    sinceLastAnswerMs: number;
  } {
    const { pending, waiting, lastGrantAtMs, lastReleaseAtMs } = this.ownPacing().backlog;
    return {
      pending,
      onTheWire: pending - waiting,
      sinceLastGrantMs: this.now() - lastGrantAtMs,
      sinceLastAnswerMs: this.now() - lastReleaseAtMs,
    };
  }

  /**
   * What waits: the pull the pacing is working through (what waits, done of total, the time left and why) and
   * the export jobs followed for cells.
   */
  progress(): WorkUnderWay {
    return { requests: this.ownPacing().progress, exportJobs: this.exportJobs.state };
  }

  /**
   * Tells `listener` whenever the progress moves, a pause starts, the service announces its limit or an export
   * job starts or ends (the pane's progress strip and usage lines follow it); returns the function that stops it.
   */
  onProgressChange(listener: () => void): () => void {
    const stops = [this.ownPacing().onChange(listener), this.exportJobs.onChange(listener)];
    return () => stops.forEach((stop) => stop());
  }

  /**
   * Ends this sign-in's data layer: nothing more is sent with its token, answers still arriving are not kept,
   * and every cached answer (memory and IndexedDB) is removed. The session does it at sign-out.
   */
  close(): Promise<void> {
    this.runner.close();
    return this.cache.close();
  }

  /** Aborted when this data layer closes (sign-out), its reason saying so: the end of anything that follows a job. */
  get closed(): AbortSignal {
    return this.runner.closed;
  }

  /**
   * The add-in's pacing, whose progress the pane shows. A data layer given another gate (the team relay's)
   * has none: what waits there is that gate's to tell, and these views are never asked of it.
   */
  private ownPacing(): RequestGate {
    if (!this.pacing) throw new Error("This data layer's requests are paced by the gate it was given.");
    return this.pacing;
  }

  /** Forgets cached answers: all, or one kind (e.g. "property"). */
  clearCache(kind?: CacheKind): Promise<void> {
    return this.cache.clear(kind);
  }

  async stats(): Promise<DataLayerStats> {
    const pacing = this.ownPacing();
    return {
      cache: await this.cache.stats(),
      requests: {
        ...this.executor.stats,
        pacedWaits: pacing.pacedWaits,
        gatePauses: pacing.pauses,
        coalesced: this.runner.coalesced,
        limit: pacing.limit,
        rateLimitedUntilMs: pacing.refusingUntilMs,
        pacing: pacing.progress,
      },
      bulkExportUsage: this.quota.usage(),
    };
  }
}

/** The page size a request asks for (`per_page`), or 1: what one request of a quota-spending row may spend. */
function pageSizeOf(params: unknown): number {
  const perPage = (params as { per_page?: unknown } | undefined)?.per_page;
  return typeof perPage === "number" && perPage > 0 ? perPage : 1;
}
