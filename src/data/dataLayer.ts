import type { ServiceClient, TypedSend } from "../api/client";
import { MAX_BULK_DETAILS_IDS, MAX_EXPLORE_MARKETS, MAX_FORECAST_AGGREGATIONS } from "../api/contractLimits";
import { ApiError } from "../api/errors";
import { operationById } from "../api/operations";
import { collectPages } from "../api/paging";
import { readAnswer } from "../api/readers/answerForm";
import type { Sleep } from "./abortableSleep";
import type { BatchedQuery, BatchedValue } from "./batchedQuery";
import { bulkDetailsBatcher, type BulkDetailsGroup, type PropertyAttributes } from "./bulkDetailsBatcher";
import type { CacheKind } from "./cachePolicy";
import { isKeyOf } from "./cacheKey";
import { ACCOUNTS, sendOperation, type Account, type Endpoint } from "./endpoints";
import {
  exploreMarketsBatcher,
  marketGroup,
  type MarketAttributes,
  type MarketGroup,
  type MarketOptions,
} from "./exploreMarketsBatcher";
import {
  asApiError,
  type AccountCallOptions,
  type AnswerSource,
  type CallOptions,
  type Fetched,
} from "./fetched";
import {
  forecastBatcher,
  forecastGroup,
  type ForecastAggregation,
  type ForecastGroup,
  type ForecastPoints,
  type ForecastQuery,
  type ForecastTarget,
} from "./forecastBatcher";
import { validateForecastFields } from "./forecastFields";
import type { BatchSchedule } from "./keyedBatcher";
import { openPersistentStore, removeDatabases } from "./persistentStore";
import { BulkExportQuotaGuard, type QuotaGuardSettings } from "./quotaGuard";
import { QueryRunner } from "./queryRunner";
import { RequestExecutor } from "./requestExecutor";
import { RequestGate, type GateLimit } from "./requestGate";
import { ResponseCache, type CacheStats, type ResponseCacheOptions } from "./responseCache";
import { DEFAULT_RETRY, type RetryOptions } from "./retryPolicy";
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
  ForecastQuery,
  ForecastTarget,
  MarketAttributes,
  MarketOptions,
  PropertyAttributes,
};

/** Options of a row's call: the caller's signal and freshness, and the account it acts for (if any). */
export type RowCallOptions = CallOptions & { accountId?: number };

const JOB_RESULTS = operationById("getBulkJobResults");

export interface DataLayerOptions {
  client: ServiceClient;
  /** Who signed in (the client id): part of every cache key, since tiers see different fields. */
  caller: string;
  /** The cache to use; by default memory in front of IndexedDB database `databaseName` (memory only without it). */
  cache?: ResponseCache;
  databaseName?: string;
  cacheOptions?: Omit<ResponseCacheOptions, "store">;
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
  now?: () => number;
  sleep?: Sleep;
  random?: () => number;
}

/** Per property: its attributes or its own error. */
export interface PropertyDetails {
  records: Map<number, Fetched<PropertyAttributes> | ApiError>;
  /** Properties this call fetched from the service: each counted toward the account's bulk export quota. */
  quotaAdded: number;
}

/** A forecast: one row per bucket with a value per requested aggregation name. */
export type ForecastSeries = { date: string; values: Record<string, number | null> }[];

export interface DataLayerStats {
  cache: CacheStats;
  requests: {
    attempts: number;
    retries: number;
    rateLimitWaits: number;
    gatePauses: number;
    coalesced: number;
    /** The pacing in force: the documented limit, or the one the service announced. */
    limit: GateLimit;
    /** Until when (epoch ms) every request fails at once because the service asked for a long wait. */
    rateLimitedUntilMs?: number;
    /** The pull under way: requests sent since the gate was idle, still waiting, and the wait left for them. */
    backlog?: { sent: number; waiting: number; expectedWaitMs: number };
  };
  /** Properties returned by bulk details and property search per account, as the service counts them toward the quota. */
  bulkExportUsage: Record<number, number>;
}

/**
 * The IndexedDB database of cached answers. Its name changes when what is stored changes meaning: "-v2" since
 * percents are kept as fractions (answers stored before held some in points).
 */
export const DEFAULT_DATABASE_NAME = "rent-market-cache-v2";

/** Databases of earlier versions, removed when the default one is opened. */
export const RETIRED_DATABASE_NAMES = ["rent-market-cache"] as const;

const SOURCE_RANK: Record<AnswerSource, number> = { cache: 0, network: 1, stale: 2 };

/** A batched answer as its callers see it: the claim on its quota stays with the data layer. */
function withoutClaim<V>(answer: BatchedValue<V>): Fetched<V>;
function withoutClaim<V>(answer: BatchedValue<V> | ApiError): Fetched<V> | ApiError;
function withoutClaim<V>(answer: BatchedValue<V> | ApiError): Fetched<V> | ApiError {
  if (answer instanceof ApiError) return answer;
  return { value: answer.value, source: answer.source, storedAt: answer.storedAt };
}

/** The answer of a call assembled from parts: stale if any part was, else network if any part was. */
function combineSources(parts: Fetched<unknown>[]): { source: AnswerSource; storedAt: number } {
  let source: AnswerSource = "cache";
  let storedAt = Number.POSITIVE_INFINITY;
  for (const part of parts) {
    if (SOURCE_RANK[part.source] > SOURCE_RANK[source]) source = part.source;
    storedAt = Math.min(storedAt, part.storedAt);
  }
  return { source, storedAt };
}

/**
 * The one data layer of a sign-in: every read of the functions and the task pane goes through it. It knows
 * HTTP only through the typed client and nothing of Excel; it runs in the browser and in Node.
 */
export class DataLayer {
  readonly cache: ResponseCache;
  private readonly gate: RequestGate;
  private readonly executor: RequestExecutor;
  private readonly runner: QueryRunner;
  private readonly properties: BatchedQuery<BulkDetailsGroup, number, PropertyAttributes>;
  private readonly markets: BatchedQuery<MarketGroup, number, MarketAttributes>;
  private readonly forecasts: BatchedQuery<ForecastGroup, ForecastAggregation, ForecastPoints>;
  private readonly now: () => number;
  /** Holds pulls that would spend too much of the bulk export quota; counts what was spent. */
  readonly quota: BulkExportQuotaGuard;

  constructor(options: DataLayerOptions) {
    this.now = options.now ?? Date.now;
    this.quota = new BulkExportQuotaGuard(options.quotaGuard);
    if (!options.cache && options.databaseName === undefined) removeDatabases(RETIRED_DATABASE_NAMES);
    this.cache =
      options.cache ??
      new ResponseCache({
        ...options.cacheOptions,
        now: options.cacheOptions?.now ?? this.now,
        store: openPersistentStore(options.databaseName ?? DEFAULT_DATABASE_NAME),
        preload: true,
        owns: (key) => isKeyOf(key, options.caller),
      });
    this.gate = new RequestGate({
      pacing: options.pacing,
      maxInFlight: options.maxInFlight,
      longestWaitMs: options.longestRateLimitWaitMs,
      now: this.now,
      sleep: options.sleep,
    });
    options.client.onAnnouncedLimit((limit) => this.gate.adopt(limit));
    this.executor = new RequestExecutor(
      this.gate,
      { ...DEFAULT_RETRY, ...options.retry },
      options.sleep,
      options.random,
    );
    this.runner = new QueryRunner(options.client, this.cache, this.executor, options.caller);
    const windowMs = options.batchWindowMs ?? 10;
    const schedule: BatchSchedule = options.batchSchedule ?? ((dispatch) => setTimeout(dispatch, windowMs));
    this.properties = bulkDetailsBatcher(this.runner, {
      maxIds: MAX_BULK_DETAILS_IDS,
      schedule,
      quota: this.quota,
    });
    this.markets = exploreMarketsBatcher(this.runner, { maxMarkets: MAX_EXPLORE_MARKETS, schedule });
    this.forecasts = forecastBatcher(this.runner, { maxAggregations: MAX_FORECAST_AGGREGATIONS, schedule });
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
   * Details of many properties when memory holds every one (a recalculation), else undefined: answered there
   * and then, so a cell that needs nothing else finishes without waiting for anything.
   */
  knownPropertyDetails(ids: readonly number[], options: AccountCallOptions): PropertyDetails | undefined {
    const groupKey = String(options.accountId);
    const group = { accountId: options.accountId };
    const records = new Map<number, Fetched<PropertyAttributes> | ApiError>();
    for (const id of ids) {
      if (records.has(id)) continue;
      const known = this.properties.peek(groupKey, group, id, options);
      if (known === undefined) return undefined;
      records.set(id, withoutClaim(known));
    }
    return { records, quotaAdded: 0 };
  }

  /** Details of many properties: batched with every other caller's, each id its own value or error. */
  async propertyDetails(ids: readonly number[], options: AccountCallOptions): Promise<PropertyDetails> {
    const groupKey = String(options.accountId);
    const group = { accountId: options.accountId };
    const unique = new Set(ids);
    const records = new Map<number, Fetched<PropertyAttributes> | ApiError>();
    // What memory holds is answered at once, without a promise per id; the rest waits for its batch.
    const waiting: number[] = [];
    for (const id of unique) {
      const known = this.properties.peek(groupKey, group, id, options);
      if (known === undefined) waiting.push(id);
      else records.set(id, withoutClaim(known));
    }
    let quotaAdded = 0;
    if (waiting.length === 0) return { records, quotaAdded };
    const settled = await Promise.all(
      waiting.map((id) =>
        this.properties.get(groupKey, group, id, options).then(
          (value) => value,
          (error: unknown) => asApiError(error),
        ),
      ),
    );
    waiting.forEach((id, index) => {
      const result = settled[index] as (typeof settled)[number];
      if (!(result instanceof ApiError) && result.source === "network" && result.claim()) quotaAdded += 1;
      records.set(id, withoutClaim(result));
    });
    return { records, quotaAdded };
  }

  /** Market metrics of many boundaries of one geo type, batched into /explore_markets calls. */
  async marketMetrics(
    boundaryIds: readonly number[],
    market: MarketOptions,
    options: AccountCallOptions,
  ): Promise<Map<number, Fetched<MarketAttributes> | ApiError>> {
    const { key, group } = marketGroup(options.accountId, market);
    const unique = [...new Set(boundaryIds)];
    const settled = await Promise.all(
      unique.map((id) =>
        this.markets.get(key, group, id, options).then(
          ({ claim: _claim, ...fetched }) => fetched,
          (error: unknown) => asApiError(error),
        ),
      ),
    );
    return new Map(unique.map((id, index) => [id, settled[index] as Fetched<MarketAttributes> | ApiError]));
  }

  /**
   * A forecast of a property or a boundary. Requests for the same target and options merge their
   * aggregations into one call; the answer's values are keyed by each aggregation's name (default: field).
   */
  async forecast(
    target: ForecastTarget,
    query: ForecastQuery,
    options: AccountCallOptions,
  ): Promise<Fetched<ForecastSeries>> {
    if (query.aggregations.length === 0)
      throw new ApiError("invalid_input", "Ask for at least one forecast field.");
    validateForecastFields(target, query.aggregations);
    const { key, group } = forecastGroup(options.accountId, target, query, this.now());
    const parts = await Promise.all(
      query.aggregations.map((aggregation) => this.forecasts.get(key, group, aggregation, options)),
    );
    const rows: ForecastSeries = [];
    query.aggregations.forEach((aggregation, index) => {
      const points = (parts[index] as Fetched<ForecastPoints>).value;
      points.forEach((point, row) => {
        const entry = (rows[row] ??= { date: point.date, values: {} });
        entry.values[aggregation.name ?? aggregation.field] = point.value;
      });
    });
    return { value: rows, ...combineSources(parts) };
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
      // The same records bulk details returns: kept, so asking for one later costs no request and no quota.
      if (endpoint.propertyDetailsIn)
        await this.properties.prime(
          String(accountId),
          { accountId },
          endpoint.propertyDetailsIn(answer) as [number, PropertyAttributes][],
        );
    }
    return answer;
  }

  /**
   * Requests waiting in the pacing or on the wire, how long ago the last went out and the last was answered
   * (RequestGate.backlog).
   */
  pacingBacklog(): { pending: number; sinceLastGrantMs: number; sinceLastAnswerMs: number } {
    const { pending, lastGrantAtMs, lastReleaseAtMs } = this.gate.backlog;
    return {
      pending,
      sinceLastGrantMs: this.now() - lastGrantAtMs,
      sinceLastAnswerMs: this.now() - lastReleaseAtMs,
    };
  }

  /** Tells `listener` when the service's limit makes every request wait (the pane's usage line shows it). */
  onRateLimitPause(listener: () => void): () => void {
    return this.gate.onPause(listener);
  }

  /**
   * Ends this sign-in's data layer: nothing more is sent with its token, answers still arriving are not kept,
   * and every cached answer (memory and IndexedDB) is removed. The session does it at sign-out.
   */
  close(): Promise<void> {
    this.runner.close();
    return this.cache.close();
  }

  /** Forgets cached answers: all, or one kind (e.g. "property"). */
  clearCache(kind?: CacheKind): Promise<void> {
    return this.cache.clear(kind);
  }

  async stats(): Promise<DataLayerStats> {
    return {
      cache: await this.cache.stats(),
      requests: {
        ...this.executor.stats,
        gatePauses: this.gate.pauses,
        coalesced: this.runner.coalesced,
        limit: this.gate.limit,
        rateLimitedUntilMs: this.gate.refusingUntilMs,
        backlog: {
          sent: this.gate.backlog.sentSinceIdle,
          waiting: this.gate.backlog.waiting,
          expectedWaitMs: this.gate.backlog.expectedWaitMs,
        },
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
