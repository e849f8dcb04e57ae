import type { FastifyReply } from "fastify";
import { ApiError, type ApiErrorKind } from "../../src/api/errors";
import { PASSED_HEADERS, type UpstreamAnswer } from "../upstream/upstream";

const STATUS_OF_KIND: Record<ApiErrorKind, number> = {
  invalid_input: 400,
  unauthorized: 502,
  forbidden: 403,
  not_found: 404,
  rate_limited: 429,
  quota_exceeded: 429,
  quota_guard: 429,
  server: 502,
  unexpected_answer: 502,
  offline: 502,
  timeout: 504,
  cancelled: 499,
};

/** An error payload of the contract's shape, written by the relay itself. */
export function sendRelayError(
  reply: FastifyReply,
  status: number,
  error: string,
  message: string,
): FastifyReply {
  return reply.code(status).type("application/json").send({ error, message });
}

/**
 * A failure of a batched request as the service would have answered it. The relay's own sign-in being
 * refused is the relay's fault, not the person's: 502, so the add-in does not ask them to sign in again.
 */
export function sendApiError(reply: FastifyReply, error: unknown): FastifyReply {
  const apiError = error instanceof ApiError ? error : new ApiError("server", "The relay failed to answer.");
  const upstreamStatus = apiError.details.status;
  if (upstreamStatus !== undefined && upstreamStatus >= 300 && upstreamStatus < 400)
    return sendRedirectRefusal(reply, upstreamStatus);
  const status =
    apiError.kind === "unauthorized" || upstreamStatus === undefined
      ? STATUS_OF_KIND[apiError.kind]
      : upstreamStatus;
  if (apiError.details.retryAfterSeconds !== undefined)
    reply.header("Retry-After", String(Math.ceil(apiError.details.retryAfterSeconds)));
  const body: Record<string, unknown> = {
    error: apiError.details.serviceMessage ?? apiError.kind,
    message: apiError.message,
  };
  if (apiError.details.quotaLimit !== undefined) body.quota_limit = apiError.details.quotaLimit;
  if (apiError.details.quotaUsage !== undefined) body.quota_usage = apiError.details.quotaUsage;
  return reply.code(status).type("application/json").send(body);
}

/**
 * A service answer passed on as it came (status, body, the headers the add-in reads). Never a redirect: a
 * `Location` of the service's would send the person's client (and its key) wherever it points, so a 3xx is
 * answered as the relay's 502 and no `Location` passes (the results redirect has its own route, jobRoutes.ts).
 */
export function sendUpstream(reply: FastifyReply, answer: UpstreamAnswer): FastifyReply {
  if (answer.status >= 300 && answer.status < 400) return sendRedirectRefusal(reply, answer.status);
  for (const name of PASSED_HEADERS) {
    if (name === "location") continue;
    const value = answer.headers.get(name);
    if (value !== null) reply.header(name, value);
  }
  return reply.code(answer.status).send(answer.body);
}

/** One page of a list the relay cut down to a person's share, with the contract's pagination of that share. */
export function pageOf<T>(items: readonly T[], page: number, perPage: number) {
  return {
    data: items.slice((page - 1) * perPage, page * perPage),
    pagination: {
      current_page: page,
      total_pages: Math.max(1, Math.ceil(items.length / perPage)),
      total_count: items.length,
      per_page: perPage,
    },
  };
}

/** A redirect of the service's, answered as the relay's 502 with no `Location` (see sendUpstream). */
function sendRedirectRefusal(reply: FastifyReply, status: number): FastifyReply {
  return sendRelayError(
    reply,
    502,
    "Bad Gateway",
    `The service answered with a redirect (HTTP ${status}), which the team relay does not pass on. Ask your relay admin to look at the relay's log.`,
  );
}
