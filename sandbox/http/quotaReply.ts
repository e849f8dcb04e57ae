import type { FastifyReply } from "fastify";
import type { SandboxContext } from "../context";
import { sendError } from "./errors";

/**
 * Counts returned properties against the account's bulk export quota. Returns undefined when the
 * request may proceed, or the 429 reply when the quota would be exceeded.
 */
export function chargeBulkExportQuota(
  context: SandboxContext,
  reply: FastifyReply,
  accountId: number,
  uniquePropertyCount: number,
): FastifyReply | undefined {
  const result = context.quota.tryConsume(accountId, uniquePropertyCount);
  if (result.ok) return undefined;
  return sendError(
    reply,
    429,
    `Bulk export quota (${result.limit}) exceeded`,
    `This request would return ${uniquePropertyCount} properties; the account has used ${result.usage} of ${result.limit}.`,
    { quota_limit: result.limit, quota_usage: result.usage },
  );
}
