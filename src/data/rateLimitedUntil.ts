import { ApiError } from "../api/errors";

const pad = (value: number) => String(value).padStart(2, "0");

/**
 * A local clock time, rounded up to the minute so that trying again at the time shown is never too early;
 * with its date when it is not today (a Retry-After of a day).
 */
export function clockTime(atMs: number, nowMs: number): string {
  const at = new Date(Math.ceil(atMs / 60_000) * 60_000);
  const now = new Date(nowMs);
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  const sameDay =
    at.getFullYear() === now.getFullYear() &&
    at.getMonth() === now.getMonth() &&
    at.getDate() === now.getDate();
  return sameDay ? time : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`;
}

/** The error of every request refused while the service's wait is longer than a caller may wait. */
export function rateLimitedUntil(untilMs: number, nowMs: number): ApiError {
  return new ApiError(
    "rate_limited",
    `Rate limited until ${clockTime(untilMs, nowMs)}: the service refuses requests until then.`,
    { retryAfterSeconds: Math.max(0, (untilMs - nowMs) / 1000), rateLimitedUntilMs: untilMs },
  );
}
