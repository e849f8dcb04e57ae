import { bulkDetailsReader } from "../api/readers/serviceReaders";
import { readAnswer } from "../api/readers/answerForm";
import { ApiError } from "../api/errors";
import { operationById } from "../api/operations";
import type { components } from "../api/schema";
import type { CacheKind } from "./cachePolicy";
import { BatchedQuery } from "./batchedQuery";
import type { BatchSchedule } from "./keyedBatcher";
import { sendOperation } from "./endpoints";
import type { QueryRunner } from "./queryRunner";
import type { BulkExportQuotaGuard } from "./quotaGuard";

const BULK_DETAILS = operationById("getBulkPropertyDetails");

export type PropertyAttributes = components["schemas"]["PropertyAttributes"];

export interface BulkDetailsGroup {
  accountId: number;
}

/** Where one property's details are cached, whichever call (bulk details or property search) brought them. */
function propertyCacheKey(runner: QueryRunner, accountId: number, id: number): string {
  return runner.key({
    kind: BULK_DETAILS.cacheKind as CacheKind,
    accountId,
    endpoint: BULK_DETAILS.path,
    params: { property_id: id },
  });
}

/**
 * Property details asked for by many cells within the window go out as bulk details calls of at most
 * `maxIds` ids; ids already cached are never requested again (each returned property costs bulk export
 * quota): a batch that would spend too much of the quota is held by `quota` before anything is sent. An id the
 * service does not return fails its own callers with not_found.
 */
export function bulkDetailsBatcher(
  runner: QueryRunner,
  settings: {
    maxIds: number;
    schedule: BatchSchedule;
    quota: BulkExportQuotaGuard;
  },
): BatchedQuery<BulkDetailsGroup, number, PropertyAttributes> {
  return new BatchedQuery(
    {
      maxPerCall: settings.maxIds,
      schedule: settings.schedule,
      itemId: (id) => String(id),
      cacheKey: (group, id) => propertyCacheKey(runner, group.accountId, id),
      fetch: async (group, ids, signal) => {
        const answer = await runner.network(
          (context) =>
            readAnswer(
              bulkDetailsReader,
              sendOperation(runner.client.api, BULK_DETAILS, {
                ...context,
                params: { query: { account_id: group.accountId, property_ids: ids.join(",") } },
              }),
            ),
          signal,
        );
        return new Map(answer.data.map((record) => [record.id, record.attributes]));
      },
      notFound: (_, id) => new ApiError("not_found", `Property ${id} was not found.`),
      beforeFetch: (group, ids) => settings.quota.check(group.accountId, ids.length),
      onFetched: (group, returned) => settings.quota.spent(group.accountId, returned),
      onFailed: (group, error) => settings.quota.learn(group.accountId, error),
    },
    runner,
  );
}
