import { readAllAccounts, type Account, type ServiceClient } from "../api/client";
import { MAX_BULK_DETAILS_IDS, MAX_EXPLORE_MARKETS, MAX_FORECAST_AGGREGATIONS } from "../api/contractLimits";
import { ApiError } from "../api/errors";
import { readAnswer } from "../api/readers/answerForm";
import { floorPlansReader, marketSurveyReader } from "../api/readers/compSetReaders";
import {
  cancelledJobReader,
  compSetsReader,
  exploreMarketsReader,
  geoSearchReader,
  jobListReader,
  jobReader,
  lookupReader,
  narrativesReader,
  propertySearchReader,
  submittedJobReader,
  unitsReader,
} from "../api/readers/serviceReaders";

import type { operations } from "../api/schema";
import type { Sleep } from "./abortableSleep";
import type { BatchedQuery, BatchedValue } from "./batchedQuery";
import {
  bulkDetailsBatcher,
  propertyCacheKey,
  type BulkDetailsGroup,
  type PropertyAttributes,
} from "./bulkDetailsBatcher";
import type { CacheKind } from "./cachePolicy";
import { isKeyOf } from "./cacheKey";
import {
  exploreMarketsBatcher,
  marketGroup,
  type ExploreMarketsBody,
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
import { openPersistentStore, removeDatabases } from "./persistentStore";
import { BulkExportQuotaGuard, type QuotaGuardSettings } from "./quotaGuard";
import { QueryRunner } from "./queryRunner";
import { RequestExecutor } from "./requestExecutor";
import { RequestGate, type GateLimit } from "./requestGate";
import { ResponseCache, type CacheStats, type ResponseCacheOptions } from "./responseCache";
import { DEFAULT_RETRY, type RetryOptions } from "./retryPolicy";
import type { PacingOptions } from "./tokenBucket";

type JsonBody<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { "application/json": infer B } };
}
  ? B
  : never;
type Query<Op extends keyof operations> = operations[Op]["parameters"]["query"];

export type GeoSearchBody = Omit<JsonBody<"searchGeoBoundaries">, "account_id">;
export type PropertySearchBody = Omit<JsonBody<"searchProperties">, "account_id">;
export type LookupQuery = Omit<NonNullable<Query<"lookupProperties">>, "account_id">;
export type UnitFilters = NonNullable<Query<"listCompSetUnits">>;
export type FloorPlanFilters = NonNullable<Query<"listCompSetFloorPlans">>;
export type CreateJobBody = JsonBody<"createBulkJob">;
export type ExploreMarketsQuery = Omit<ExploreMarketsBody, "account_id">;
export type {
  ForecastAggregation,
  ForecastQuery,
  ForecastTarget,
  MarketAttributes,
  MarketOptions,
  PropertyAttributes,
};

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
    this.properties = bulkDetailsBatcher(this.runner, {
      maxIds: MAX_BULK_DETAILS_IDS,
      windowMs,
      quota: this.quota,
    });
    this.markets = exploreMarketsBatcher(this.runner, { maxMarkets: MAX_EXPLORE_MARKETS, windowMs });
    this.forecasts = forecastBatcher(this.runner, { maxAggregations: MAX_FORECAST_AGGREGATIONS, windowMs });
  }

  private get api() {
    return this.runner.client.api;
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
    return this.runner.queryWith(
      { kind: "accounts", accountId: undefined, endpoint: "/accounts", params: {} },
      (signal) => readAllAccounts(this.api, (send) => this.runner.network(send, signal)),
      options,
    );
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

  /** One property's details (batched like propertyDetails). */
  async property(id: number, options: AccountCallOptions): Promise<Fetched<PropertyAttributes>> {
    const { claim: _claim, ...fetched } = await this.properties.get(
      String(options.accountId),
      { accountId: options.accountId },
      id,
      options,
    );
    return fetched;
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

  /** One boundary's market metrics (batched like marketMetrics). */
  async market(
    boundaryId: number,
    market: MarketOptions,
    options: AccountCallOptions,
  ): Promise<Fetched<MarketAttributes>> {
    const { key, group } = marketGroup(options.accountId, market);
    const { claim: _claim, ...fetched } = await this.markets.get(key, group, boundaryId, options);
    return fetched;
  }

  /** A market comparison table (sort, limit, filters) as the service ranks it: one cached call. */
  exploreMarkets(query: ExploreMarketsQuery, options: AccountCallOptions) {
    return this.runner.query(
      { kind: "market", accountId: options.accountId, endpoint: "/explore_markets", params: query },
      (context) =>
        readAnswer(
          exploreMarketsReader,
          this.api.POST("/explore_markets", {
            ...context,
            body: { ...query, account_id: options.accountId },
          }),
        ),
      options,
    );
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

  geoSearch(body: GeoSearchBody, options: AccountCallOptions) {
    return this.runner.query(
      { kind: "geo_search", accountId: options.accountId, endpoint: "/geo_boundaries/search", params: body },
      (context) =>
        readAnswer(
          geoSearchReader,
          this.api.POST("/geo_boundaries/search", {
            ...context,
            body: { ...body, account_id: options.accountId },
          }),
        ),
      options,
    );
  }

  /**
   * One page of a property search. `quotaPull` is what the pull it belongs to may spend of the bulk export quota
   * (this page's size unless told), weighed by the quota guard before the page is fetched (not when cached).
   */
  propertySearch(
    body: PropertySearchBody & { per_page: number },
    options: AccountCallOptions,
    quotaPull = body.per_page,
  ) {
    const answered = this.runner.query(
      {
        kind: "property_search",
        accountId: options.accountId,
        endpoint: "/geo_boundaries/properties",
        params: body,
      },
      async (context) => {
        this.quota.check(options.accountId, quotaPull);
        const answer = await readAnswer(
          propertySearchReader,
          this.api.POST("/geo_boundaries/properties", {
            ...context,
            body: { ...body, account_id: options.accountId },
          }),
        );
        if (answer.data) {
          // Counted here, once per answer received, not once per caller sharing it.
          this.quota.spent(options.accountId, answer.data.data.length);
          // The same records bulk details returns: cache each, so asking for one later costs no request and no quota.
          await this.cache.setMany(
            answer.data.data.map((record) => ({
              key: propertyCacheKey(this.runner, options.accountId, Number(record.id)),
              value: record.attributes,
            })),
          );
        }
        return answer;
      },
      options,
    );
    // The quota error names the account's limit and usage: the guard learns them.
    answered.catch((error: unknown) => this.quota.learn(options.accountId, error));
    return answered;
  }

  /** One page of property ids matching the filters. */
  lookup(query: LookupQuery, options: AccountCallOptions) {
    return this.runner.query(
      { kind: "lookup", accountId: options.accountId, endpoint: "/properties/lookup", params: query },
      (context) =>
        readAnswer(
          lookupReader,
          this.api.GET("/properties/lookup", {
            ...context,
            params: { query: { ...query, account_id: options.accountId } },
          }),
        ),
      options,
    );
  }

  compSets(options: AccountCallOptions) {
    return this.runner.query(
      {
        kind: "comp_sets",
        accountId: options.accountId,
        endpoint: "/accounts/{account_id}/comp_sets",
        params: {},
      },
      (context) =>
        readAnswer(
          compSetsReader,
          this.api.GET("/accounts/{account_id}/comp_sets", {
            ...context,
            params: { path: { account_id: options.accountId } },
          }),
        ),
      options,
    );
  }

  /**
   * A comp set's reads name no account at the service, but the answer is the account's: the key names the
   * account the call acts for, as every other account's read does, so no other account's cells share it.
   */
  marketSurvey(compSetId: number, options: AccountCallOptions) {
    return this.runner.query(
      {
        kind: "market_survey",
        accountId: options.accountId,
        endpoint: "/comp_sets/{comp_set_id}/market_survey",
        params: { compSetId },
      },
      (context) =>
        readAnswer(
          marketSurveyReader,
          this.api.GET("/comp_sets/{comp_set_id}/market_survey", {
            ...context,
            params: { path: { comp_set_id: compSetId } },
          }),
        ),
      options,
    );
  }

  units(compSetId: number, filters: UnitFilters, options: AccountCallOptions) {
    return this.runner.query(
      {
        kind: "units",
        accountId: options.accountId,
        endpoint: "/comp_sets/{comp_set_id}/units",
        params: { compSetId, filters },
      },
      (context) =>
        readAnswer(
          unitsReader,
          this.api.GET("/comp_sets/{comp_set_id}/units", {
            ...context,
            params: { path: { comp_set_id: compSetId }, query: filters },
          }),
        ),
      options,
    );
  }

  floorPlans(compSetId: number, filters: FloorPlanFilters, options: AccountCallOptions) {
    return this.runner.query(
      {
        kind: "floor_plans",
        accountId: options.accountId,
        endpoint: "/comp_sets/{comp_set_id}/floor_plans",
        params: { compSetId, filters },
      },
      (context) =>
        readAnswer(
          floorPlansReader,
          this.api.GET("/comp_sets/{comp_set_id}/floor_plans", {
            ...context,
            params: { path: { comp_set_id: compSetId }, query: filters },
          }),
        ),
      options,
    );
  }

  narrative(boundaryId: number, options: AccountCallOptions) {
    return this.runner.query(
      {
        kind: "narrative",
        accountId: options.accountId,
        endpoint: "/markets/narratives",
        params: { boundaryId },
      },
      (context) =>
        readAnswer(
          narrativesReader,
          this.api.GET("/markets/narratives", {
            ...context,
            params: { query: { account_id: options.accountId, geo_boundary_id: boundaryId } },
          }),
        ),
      options,
    );
  }

  /** Submits an export job: paced like every request, but never sent twice after an unclear failure. */
  submitJob(body: CreateJobBody, signal?: AbortSignal) {
    return this.runner.network(
      (context) => readAnswer(submittedJobReader, this.api.POST("/bulk_api/jobs", { ...context, body })),
      signal ?? new AbortController().signal,
      false,
    );
  }

  /** One page of the caller's export jobs, newest first (never cached: they move). */
  jobs(page = 1, perPage = 50, signal?: AbortSignal) {
    return this.runner.network(
      (context) =>
        readAnswer(
          jobListReader,
          this.api.GET("/bulk_api/jobs", { ...context, params: { query: { page, per_page: perPage } } }),
        ),
      signal ?? new AbortController().signal,
    );
  }

  /** A job's current state (never cached: it moves). */
  job(jobId: string, signal?: AbortSignal) {
    return this.runner.network(
      (context) =>
        readAnswer(
          jobReader,
          this.api.GET("/bulk_api/jobs/{job_id}", { ...context, params: { path: { job_id: jobId } } }),
        ),
      signal ?? new AbortController().signal,
    );
  }

  cancelJob(jobId: string, signal?: AbortSignal) {
    return this.runner.network(
      (context) =>
        readAnswer(
          cancelledJobReader,
          this.api.DELETE("/bulk_api/jobs/{job_id}", { ...context, params: { path: { job_id: jobId } } }),
        ),
      signal ?? new AbortController().signal,
    );
  }

  /**
   * The file of a succeeded job. The service answers with a redirect to a signed download URL on another
   * origin; fetch follows it and, the origin being different, drops the Authorization header (Fetch standard),
   * so the token never reaches the download host, which would refuse it anyway.
   */
  jobResults(jobId: string, signal?: AbortSignal): Promise<ArrayBuffer> {
    return this.runner.network(
      (context) =>
        this.api.GET("/bulk_api/jobs/{job_id}/results", {
          ...context,
          params: { path: { job_id: jobId } },
          parseAs: "arrayBuffer",
        }),
      signal ?? new AbortController().signal,
    );
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
