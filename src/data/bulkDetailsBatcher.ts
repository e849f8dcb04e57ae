import { bulkDetailsReader } from "../api/readers/serviceReaders";
import { readAnswer } from "../api/readers/answerForm";
import { ApiError } from "../api/errors";
import type { components } from "../api/schema";
import { BatchedQuery } from "./batchedQuery";
import type { QueryRunner } from "./queryRunner";
import type { BulkExportQuotaGuard } from "./quotaGuard";

export type PropertyAttributes = components["schemas"]["PropertyAttributes"];

export interface BulkDetailsGroup {
  accountId: number;
}

/** Where one property's details are cached, whichever call (bulk details or property search) brought them. */
export function propertyCacheKey(runner: QueryRunner, accountId: number, id: number): string {
  return runner.key({
    kind: "property",
    accountId,
    endpoint: "/properties/bulk_details",
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
    windowMs: number;
    quota: BulkExportQuotaGuard;
  },
): BatchedQuery<BulkDetailsGroup, number, PropertyAttributes> {
  return new BatchedQuery(
    {
      maxPerCall: settings.maxIds,
      windowMs: settings.windowMs,
      itemId: (id) => String(id),
      cacheKey: (group, id) => propertyCacheKey(runner, group.accountId, id),
      fetch: async (group, ids, signal) => {
        const answer = await runner.network(
          (context) =>
            readAnswer(
              bulkDetailsReader,
              runner.client.api.GET("/properties/bulk_details", {
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
