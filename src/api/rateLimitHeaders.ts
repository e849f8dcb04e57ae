/** A limit the service announced in its headers: requests per window. */
export interface AnnouncedLimit {
  limit: number;
  /** Window length; absent when the service named only the count. */
  windowSeconds?: number;
}

/** RFC 9110 HTTP-date forms: IMF-fixdate, the obsolete RFC 850 form, and asctime (which carries no zone). */
const IMF_FIXDATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC_850 = /^[A-Za-z]+, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

function httpDateMs(text: string): number | undefined {
  if (IMF_FIXDATE.test(text) || RFC_850.test(text)) return Date.parse(text);
  if (ASCTIME.test(text)) return Date.parse(`${text} GMT`);
  return undefined;
}

/**
 * Seconds to wait from a `Retry-After` value: delay-seconds or an HTTP-date (RFC 9110 allows both).
 * Anything else is not a usable answer (undefined), and the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = httpDateMs(text);
  if (at === undefined || !Number.isFinite(at)) return undefined;
  return Math.max(0, (at - nowMs) / 1000);
}

function wholeNumber(headers: Headers, name: string): number | undefined {
  const text = headers.get(name)?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** Seconds to wait after a 429: Retry-After (either form), else the window's reset time, else undefined. */
export function retryAfterSeconds(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const retryAfter = parseRetryAfter(headers.get("retry-after"), nowMs);
  if (retryAfter !== undefined) return retryAfter;
  const reset = wholeNumber(headers, "x-ratelimit-reset");
  return reset === undefined ? undefined : Math.max(0, reset - nowMs / 1000);
}

/** The limit a response announces (`X-RateLimit-Limit`, `X-RateLimit-Reset-After`), if it names one. */
export function announcedLimit(headers: Headers): AnnouncedLimit | undefined {
  const limit = wholeNumber(headers, "x-ratelimit-limit");
  if (limit === undefined || limit < 1) return undefined;
  const windowSeconds = wholeNumber(headers, "x-ratelimit-reset-after");
  return windowSeconds !== undefined && windowSeconds > 0 ? { limit, windowSeconds } : { limit };
}
