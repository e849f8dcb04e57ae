import type { FastifyReply } from "fastify";
import type { RateLimitDecision } from "../auth/rateLimiter";
import type { RateLimitHeaderForm } from "../faults/faultSettings";

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

/** The headers of a 429 in the form the fault settings ask for (RFC 9110 allows Retry-After as a date). */
function headersInForm(
  decision: RateLimitDecision,
  form: RateLimitHeaderForm,
  nowMs: number,
): Record<string, string> {
  if (form === "none") return {};
  const headers = rateLimitHeaders(decision);
  if (form === "http-date") {
    // An HTTP date has whole seconds: round the instant up so the date never asks for less than the wait.
    const at = Math.ceil(nowMs / 1000 + decision.retryAfterSeconds) * 1000;
    headers["Retry-After"] = new Date(at).toUTCString();
  }
  return headers;
}

/** The live service's rate-limit answer: plain text plus the rate-limit headers. */
export function sendRateLimited(
  reply: FastifyReply,
  decision: RateLimitDecision,
  form: RateLimitHeaderForm = "seconds",
  nowMs: number = Date.now(),
): FastifyReply {
  return reply
    .code(429)
    .headers(headersInForm(decision, form, nowMs))
    .type("text/plain; charset=utf-8")
    .send(RATE_LIMIT_TEXT);
}
