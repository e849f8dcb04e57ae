import type { FastifyReply } from "fastify";
import type { RateLimitDecision } from "../auth/rateLimiter";

/** The live service's rate-limit answer: plain text plus the four headers of the spec. */
export function sendRateLimited(reply: FastifyReply, decision: RateLimitDecision): FastifyReply {
  return reply
    .code(429)
    .header("X-RateLimit-Limit", String(decision.limit))
    .header("X-RateLimit-Reset-After", String(decision.windowSeconds))
    .header("X-RateLimit-Reset", String(decision.resetAt))
    .header("Retry-After", String(decision.retryAfterSeconds))
    .type("text/plain; charset=utf-8")
    .send(`Rate limit exceeded. Retry in ${decision.retryAfterSeconds} seconds.`);
}
