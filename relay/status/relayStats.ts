import type { Counters } from "../store/relayStore";
import type { OperationId } from "../../src/api/operations";
import { operationLabel } from "./operationLabel";
import type { ReportedLimit } from "../upstream/teamGate";
import { RelayMetrics } from "./metrics";

const TOTALS = "totals";
const BY_USER = "requests-by-user";
const UPSTREAM_BY_USER = "upstream-by-user";
const UPSTREAM_BY_ENDPOINT = "upstream-by-endpoint";
const QUOTA = "quota-by-account";

export interface RelayStatus {
  store: string;
  upstream: {
    /** Requests sent to the service in the current window (windows start at multiples of its length). */
    spentThisWindow: number;
    limit: number;
    windowSeconds: number;
    total: number;
    /** Answers one relay instance received for a request another one had already sent. */
    shared: number;
    rateLimited: number;
    byUser: Record<string, number>;
    /** By operation of the contract: e.g. "getBulkPropertyDetails". */
    byEndpoint: Record<string, number>;
  };
  cache: { hits: number; misses: number; hitRate: number };
  /** Properties counted toward each account's bulk export quota by the relay's requests. */
  quotaUsedByAccount: Record<string, number>;
  requestsByUser: Record<string, number>;
  waitingByUser: Record<string, number>;
}

/** The figures of the status page, kept in the store so that every instance adds to the same ones. */
export class RelayStats {
  /** This instance's own figures, for `/metrics`. */
  readonly metrics = new RelayMetrics();

  constructor(
    private readonly counters: Counters,
    private readonly limit: ReportedLimit,
    private readonly now: () => number = Date.now,
  ) {}

  private windowGroup(): { group: string; ttlMs: number } {
    const { windowMs } = this.limit.current;
    return { group: `window:${windowMs}:${Math.floor(this.now() / windowMs)}`, ttlMs: windowMs };
  }

  async upstreamSent(user: string, operationId: OperationId | undefined): Promise<void> {
    const { group, ttlMs } = this.windowGroup();
    const endpoint = operationLabel(operationId);
    await Promise.all([
      this.counters.add(group, "requests", 1, ttlMs),
      this.counters.add(TOTALS, "upstream", 1),
      this.counters.add(UPSTREAM_BY_USER, user, 1),
      this.counters.add(UPSTREAM_BY_ENDPOINT, endpoint, 1),
    ]);
  }

  rateLimited(): Promise<void> {
    return this.counters.add(TOTALS, "rateLimited", 1);
  }

  sharedAnswer(): Promise<void> {
    this.metrics.sharedAnswer();
    return this.counters.add(TOTALS, "shared", 1);
  }

  userRequest(user: string): Promise<void> {
    return this.counters.add(BY_USER, user, 1);
  }

  quotaUsed(accountId: number, properties: number): Promise<void> {
    return properties > 0 ? this.counters.add(QUOTA, String(accountId), properties) : Promise.resolve();
  }

  async cacheLookups(hits: number, misses: number): Promise<void> {
    this.metrics.cacheLookups(hits, misses);
    await Promise.all([
      hits > 0 ? this.counters.add(TOTALS, "cacheHits", hits) : undefined,
      misses > 0 ? this.counters.add(TOTALS, "cacheMisses", misses) : undefined,
    ]);
  }

  async snapshot(store: string, waitingByUser: Record<string, number>): Promise<RelayStatus> {
    const [window, totals, byUser, upstreamByUser, quota, byEndpoint] = await Promise.all([
      this.counters.read(this.windowGroup().group),
      this.counters.read(TOTALS),
      this.counters.read(BY_USER),
      this.counters.read(UPSTREAM_BY_USER),
      this.counters.read(QUOTA),
      this.counters.read(UPSTREAM_BY_ENDPOINT),
    ]);
    const hits = totals.cacheHits ?? 0;
    const misses = totals.cacheMisses ?? 0;
    const { limit, windowMs } = this.limit.current;
    return {
      store,
      upstream: {
        spentThisWindow: window.requests ?? 0,
        limit,
        windowSeconds: windowMs / 1000,
        total: totals.upstream ?? 0,
        shared: totals.shared ?? 0,
        rateLimited: totals.rateLimited ?? 0,
        byUser: upstreamByUser,
        byEndpoint,
      },
      cache: { hits, misses, hitRate: hits + misses === 0 ? 0 : hits / (hits + misses) },
      quotaUsedByAccount: quota,
      requestsByUser: byUser,
      waitingByUser,
    };
  }
}
