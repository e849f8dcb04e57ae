import { ApiError } from "../api/errors";
import { readAnswer } from "../api/readers/answerForm";
import type { BatchedEndpoint } from "./batchedEndpoints";
import { BatchedQuery, type BatchedValue } from "./batchedQuery";
import { canonicalJson } from "./cacheKey";
import { sendOperation } from "./endpoints";
import { asApiError, type AccountCallOptions, type Fetched } from "./fetched";
import type { BatchSchedule } from "./keyedBatcher";
import type { QueryRunner } from "./queryRunner";
import type { BulkExportQuotaGuard } from "./quotaGuard";

/** What items must share to go out in one call: the account, the caller's parameters and the period. */
interface BatchGroup<P> {
  accountId: number;
  params: P;
  period?: string;
}

/** Per item: its value or its own error. */
export interface BatchedAnswers<I, V> {
  records: Map<I, Fetched<V> | ApiError>;
  /** Properties this call fetched from the service: each counted toward the account's bulk export quota. */
  quotaAdded: number;
}

export interface BatchedReadsSettings {
  /** When a batch goes out (DataLoader's batchScheduleFn). */
  schedule: BatchSchedule;
  /** Holds, counts and learns from calls of a row whose operation spends the bulk export quota. */
  quota: BulkExportQuotaGuard;
  now: () => number;
}

/** A batched answer as its callers see it: the claim on its quota stays here. */
function withoutClaim<V>(answer: BatchedValue<V> | ApiError): Fetched<V> | ApiError {
  if (answer instanceof ApiError) return answer;
  return { value: answer.value, source: answer.source, storedAt: answer.storedAt };
}

/**
 * Runs any batched row of the table (src/data/batchedEndpoints.ts) through one BatchedQuery per row, made when
 * the row is first read: keys batched DataLoader-style under the injected schedule, each item cached under the
 * row's kind, calls through the runner's gate, the bulk export quota guarded when the operation spends it.
 */
export class BatchedReads {
  private readonly queries = new Map<object, BatchedQuery<BatchGroup<unknown>, unknown, unknown>>();

  constructor(
    private readonly runner: QueryRunner,
    private readonly settings: BatchedReadsSettings,
  ) {}

  /**
   * Every item's answer when memory holds each one (a recalculation), else undefined: answered there and then,
   * so a cell that needs nothing else finishes without waiting for anything.
   */
  known<P, I, V>(
    row: BatchedEndpoint<P, I, V>,
    params: P,
    items: readonly I[],
    options: AccountCallOptions,
  ): BatchedAnswers<I, V> | undefined {
    const { query, key, group } = this.batchOf(row, params, options.accountId);
    const records = new Map<I, Fetched<V> | ApiError>();
    for (const item of items) {
      if (records.has(item)) continue;
      const known = query.peek(key, group, item, options);
      if (known === undefined) return undefined;
      records.set(item, withoutClaim(known));
    }
    return { records, quotaAdded: 0 };
  }

  /** Every item's answer: batched with every other caller's items of the same row, parameters and account. */
  async read<P, I, V>(
    row: BatchedEndpoint<P, I, V>,
    params: P,
    items: readonly I[],
    options: AccountCallOptions,
  ): Promise<BatchedAnswers<I, V>> {
    const { query, key, group } = this.batchOf(row, params, options.accountId);
    const records = new Map<I, Fetched<V> | ApiError>();
    // What memory holds is answered at once, without a promise per item; the rest waits for its batch.
    const waiting: I[] = [];
    for (const item of new Set(items)) {
      const known = query.peek(key, group, item, options);
      if (known === undefined) waiting.push(item);
      else records.set(item, withoutClaim(known));
    }
    let quotaAdded = 0;
    if (waiting.length === 0) return { records, quotaAdded };
    const settled = await Promise.all(
      waiting.map((item) => query.get(key, group, item, options).catch(asApiError)),
    );
    const spends = row.operation.spendsPropertyQuota === true;
    waiting.forEach((item, index) => {
      const result = settled[index] as BatchedValue<V> | ApiError;
      if (spends && !(result instanceof ApiError) && result.source === "network" && result.claim())
        quotaAdded += 1;
      records.set(item, withoutClaim(result));
    });
    return { records, quotaAdded };
  }

  /** Stores items' values another answer carried (DataLoader's `prime`): asking for one later costs nothing. */
  prime<P, I, V>(
    row: BatchedEndpoint<P, I, V>,
    params: P,
    accountId: number,
    entries: readonly (readonly [I, V])[],
  ): Promise<void> {
    const { query, key, group } = this.batchOf(row, params, accountId);
    return query.prime(key, group, entries);
  }

  private batchOf<P, I, V>(row: BatchedEndpoint<P, I, V>, params: P, accountId: number) {
    const group: BatchGroup<P> = { accountId, params, period: row.period?.(this.settings.now()) };
    let query = this.queries.get(row) as BatchedQuery<BatchGroup<P>, I, V> | undefined;
    if (!query) {
      query = this.queryOf(row);
      this.queries.set(row, query as BatchedQuery<BatchGroup<unknown>, unknown, unknown>);
    }
    return { query, key: canonicalJson(group), group };
  }

  private queryOf<P, I, V>(row: BatchedEndpoint<P, I, V>): BatchedQuery<BatchGroup<P>, I, V> {
    const { runner } = this;
    const { operation } = row;
    const { cacheKind, operationId, path } = operation;
    if (!cacheKind) throw new Error(`${operationId} is never cached: it cannot be a batched row`);
    const quota = operation.spendsPropertyQuota ? this.settings.quota : undefined;
    return new BatchedQuery<BatchGroup<P>, I, V>(
      {
        maxPerCall: row.maxPerCall,
        schedule: this.settings.schedule,
        itemId: row.itemId,
        cacheKey: (group, item) =>
          runner.key({
            kind: cacheKind,
            accountId: group.accountId,
            endpoint: path,
            params: row.keyParams(group.params, item),
            period: group.period,
          }),
        fetch: (group, items, signal) =>
          row.fetch(
            (reader, request) =>
              runner.network(
                (context) =>
                  readAnswer(reader, sendOperation(runner.client.api, operation, { ...context, ...request })),
                signal,
              ),
            group.params,
            items,
            group.accountId,
          ),
        notFound: (group, item) => row.notFound(group.params, item),
        beforeFetch: quota && ((group, items) => quota.check(group.accountId, items.length)),
        onFetched: quota && ((group, returned) => quota.spent(group.accountId, returned)),
        onFailed: quota && ((group, error) => quota.learn(group.accountId, error)),
      },
      runner,
    );
  }
}
