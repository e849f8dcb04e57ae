import type { FastifyReply } from "fastify";
import type { RateLimitDecision } from "../auth/rateLimiter";

/** The four headers the spec puts on every 429. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Reset-After": String(decision.windowSeconds),
    "X-RateLimit-Reset": String(decision.resetAt),
    "Retry-After": String(decision.retryAfterSeconds),
  };
}

/** The live service's rate-limit text (api-notes, "Observed on the live service"). */
export const RATE_LIMIT_TEXT = "You have exceeded the rate limit for this API.";

/** The live service's rate-limit answer: plain text plus the rate-limit headers. */
export function sendRateLimited(reply: FastifyReply, decision: RateLimitDecision): FastifyReply {
  return reply
    .code(429)
    .headers(rateLimitHeaders(decision))
    .type("text/plain; charset=utf-8")
    .send(RATE_LIMIT_TEXT);
}
