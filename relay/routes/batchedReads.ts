import { ApiError } from "../../src/api/errors";
import type { OperationRequest } from "../../src/api/operations";
import type { BatchedEndpoint } from "../../src/data/batchedEndpoints";
import type { Fetched } from "../../src/data/fetched";
import type { RelayStats } from "../status/relayStats";
import { carried } from "../upstream/interests";
import type { Upstream } from "../upstream/upstream";

/**
 * Every batched read of everyone (bulk details, market metrics, forecasts) goes through the add-in's own batched
 * rows, one level up, in one branch: the row reads the person's request into its items
 * (`BatchedEndpoint.splitRequest`), what several people ask within the batch window leaves as one call, each
 * item is cached on its own, and the row assembles the person's answer from their items
 * (`assembleAnswer`). A request of a shape no row makes is not batched and is forwarded as it is.
 *
 * Each read waits with its client's signal (a batch goes on while anyone still waits for it) and is known to
 * wait for its items, so the call that carries them goes out on this person's turn, whoever opened the batch.
 */

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

/**
 * A request of `person`'s that `row` split into `params` and `items`, answered through the row of the relay's
 * data layer, known to the upstream's interests as waiting for its items.
 */
export async function batchedRead<P, I, V>(
  upstream: Pick<Upstream, "data" | "interests">,
  stats: RelayStats,
  person: string,
  /** Their client's: the read stops waiting when they have gone (the batch goes on while others wait). */
  signal: AbortSignal | undefined,
  request: OperationRequest & { accountId: number },
  read: { row: BatchedEndpoint<P, I, V>; params: P; items: I[] },
): Promise<BatchedAnswer> {
  const { row, params, items } = read;
  const { accountId } = request;
  const reading = () => upstream.data.readMany(row, params, items, { accountId, signal });
  const wanted = carried(request);
  const { records, quotaAdded } = wanted
    ? await upstream.interests.during(person, wanted, reading)
    : await reading();
  await Promise.all([
    row.operation.spendsPropertyQuota ? stats.quotaUsed(accountId, quotaAdded) : undefined,
    countLookups(stats, records.values()),
  ]);
  const failure = firstFailure(records.values());
  if (failure) return { error: failure };
  try {
    return {
      body: row.assembleAnswer(params, items, (item) => {
        const record = records.get(item);
        return record === undefined || record instanceof ApiError ? undefined : record.value;
      }),
    };
  } catch (error) {
    if (error instanceof ApiError) return { error };
    throw error;
  }
}
