import { ApiError } from "../api/errors";
import { clockTime } from "../formats/localTime";

/** The error of every request refused while the service's wait is longer than a caller may wait. */
export function rateLimitedUntil(untilMs: number, nowMs: number): ApiError {
  return new ApiError(
    "rate_limited",
    `Rate limited until ${clockTime(untilMs, nowMs)}: the service refuses requests until then.`,
    { retryAfterSeconds: Math.max(0, (untilMs - nowMs) / 1000), rateLimitedUntilMs: untilMs },
  );
}
