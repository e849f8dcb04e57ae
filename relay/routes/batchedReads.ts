import { randomUUID } from "node:crypto";
import { ApiError } from "../../src/api/errors";
import type { DataLayer, ForecastQuery, ForecastTarget } from "../../src/data/dataLayer";
import { MARKET_METRICS, PROPERTY_DETAILS, type MarketOptions } from "../../src/data/batchedEndpoints";
import { readForecast } from "../../src/data/forecastSeries";
import type { Fetched } from "../../src/data/fetched";
import { currentUser } from "../requestContext";
import type { RelayStats } from "../status/relayStats";
import { currentClientSignal } from "../upstream/clientSignal";
import { interestsOf, type Wanted } from "../upstream/interests";

/**
 * Bulk details, market metrics and forecasts of everyone go through the add-in's own batched rows, one level up:
 * what several people ask within the batch window leaves as one call, and each property, boundary and
 * forecast series is cached on its own, so a colleague's differently split batch is still answered locally.
 * A request of a shape those rows do not make is not "batchable" and is forwarded as it is.
 *
 * Each read waits with its client's signal (a batch goes on while anyone still waits for it) and is known to
 * wait for its items, so the call that carries them goes out on this person's turn, whoever opened the batch.
 */

/** Runs a batched read of the current person's, known to wait for `wanted`, with their client's signal. */
function asPerson<T>(
  data: DataLayer,
  wanted: Wanted | undefined,
  read: (signal: AbortSignal | undefined) => Promise<T>,
) {
  if (!wanted) return read(currentClientSignal());
  return interestsOf(data).during(currentUser(), wanted, () => read(currentClientSignal()));
}

/** The answer of a batched read: a body in the contract's shape, or the error to send instead. */
export type BatchedAnswer = { body: unknown } | { error: ApiError };

/** Each failure that is not "not found" is the answer of the whole request, as one service call would give. */
function firstFailure<T>(values: Iterable<Fetched<T> | ApiError>): ApiError | undefined {
  for (const value of values) if (value instanceof ApiError && value.kind !== "not_found") return value;
  return undefined;
}

async function countLookups(stats: RelayStats, values: Iterable<Fetched<unknown> | ApiError>): Promise<void> {
  let hits = 0;
  let misses = 0;
  for (const value of values) {
    if (value instanceof ApiError) continue;
    if (value.source === "network") misses += 1;
    else hits += 1;
  }
  await stats.cacheLookups(hits, misses);
}

export async function bulkDetails(
  data: DataLayer,
  stats: RelayStats,
  accountId: number,
  ids: number[],
  wanted: Wanted | undefined,
): Promise<BatchedAnswer> {
  const { records, quotaAdded } = await asPerson(data, wanted, (signal) =>
    data.readMany(PROPERTY_DETAILS, {}, ids, { accountId, signal }),
  );
  await Promise.all([stats.quotaUsed(accountId, quotaAdded), countLookups(stats, records.values())]);
  const failure = firstFailure(records.values());
  if (failure) return { error: failure };
  const found = [...records].flatMap(([id, record]) =>
    record instanceof ApiError ? [] : [{ id: String(id), type: "properties", attributes: record.value }],
  );
  return { body: { data: found } };
}

export async function marketMetrics(
  data: DataLayer,
  stats: RelayStats,
  accountId: number,
  query: { ids: number[]; options: MarketOptions },
  wanted: Wanted | undefined,
): Promise<BatchedAnswer> {
  const { records: markets } = await asPerson(data, wanted, (signal) =>
    data.readMany(MARKET_METRICS, query.options, query.ids, { accountId, signal }),
  );
  await countLookups(stats, markets.values());
  const failure = firstFailure(markets.values());
  if (failure) return { error: failure };
  const ranked = [...markets.values()]
    .flatMap((market) => (market instanceof ApiError ? [] : [market.value]))
    .sort((a, b) => b.property_count_total - a.property_count_total);
  return {
    body: {
      data: ranked.map((attributes) => ({ id: String(attributes.id), type: "compare_market", attributes })),
    },
  };
}

export async function forecast(
  data: DataLayer,
  stats: RelayStats,
  accountId: number,
  target: ForecastTarget,
  query: ForecastQuery,
  wanted: Wanted | undefined,
): Promise<BatchedAnswer> {
  try {
    const answer = await asPerson(data, wanted, (signal) =>
      readForecast(data, target, query, { accountId, signal }),
    );
    await countLookups(stats, [answer]);
    return {
      body: { data: { id: randomUUID(), type: "forecasts", attributes: { time_series: answer.value } } },
    };
  } catch (error) {
    return { error: error instanceof ApiError ? error : new ApiError("server", "The forecast failed.") };
  }
}
