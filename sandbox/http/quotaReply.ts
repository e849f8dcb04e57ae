import type { FastifyReply, FastifyRequest } from "fastify";
import { callerOf, type SandboxContext } from "../context";
import { sendError } from "./errors";
import { rateLimitHeaders } from "./rateLimitReply";

/**
 * Counts returned properties against the account's bulk export quota. Returns undefined when the
 * request may proceed, or the 429 reply when the quota would be exceeded. Like every 429 of the
 * service it carries the rate-limit headers (of the caller's current window).
 */
export function chargeBulkExportQuota(
  context: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: number,
  uniquePropertyCount: number,
): FastifyReply | undefined {
  const result = context.quota.tryConsume(accountId, uniquePropertyCount);
  if (result.ok) return undefined;
  reply.headers(rateLimitHeaders(context.rateLimiter.peek(callerOf(request).token.accessToken)));
  return sendError(
    reply,
    429,
    `Bulk export quota (${result.limit}) exceeded`,
    `This request would return ${uniquePropertyCount} properties; the account has used ${result.usage} of ${result.limit}.`,
    { quota_limit: result.limit, quota_usage: result.usage },
  );
}
