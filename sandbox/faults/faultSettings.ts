/** How a 429 carries its wait: the spec's headers, `Retry-After` as an HTTP date (RFC 9110), or no headers. */
export type RateLimitHeaderForm = "seconds" | "http-date" | "none";

export const RATE_LIMIT_HEADER_FORMS: readonly RateLimitHeaderForm[] = ["seconds", "http-date", "none"];

/** Faults the sandbox can inject into API responses, for tests and benchmarks of resilience. */
export interface FaultSettings {
  /** Added delay before every API response (ms). */
  latencyMs: number;
  /** Share (0..1) of API requests answered with a plain-text 500. */
  errorRate: number;
  /** The next N API requests are answered 429 (plain text, with the rate-limit headers). */
  rateLimitBurst: number;
  /** Share (0..1) of API requests whose connection is destroyed without a response. */
  dropRate: number;
  /** 403 answers come with an empty body, as the live service sometimes sends them. */
  emptyForbiddenBodies: boolean;
  /**
   * Success answers of these operations (by operationId) carry this text as their JSON body instead: a
   * service answering in a form the client does not expect.
   */
  replacedBodies: Record<string, string>;
  /** The headers of every 429 (injected or earned): the spec's form, `Retry-After` as a date, or none. */
  rateLimitHeaders: RateLimitHeaderForm;
  /** Paged answers come without `pagination.total_pages`, as the live service was seen to answer. */
  omitTotalPages: boolean;
}

export const NO_FAULTS: FaultSettings = {
  latencyMs: 0,
  errorRate: 0,
  rateLimitBurst: 0,
  dropRate: 0,
  emptyForbiddenBodies: false,
  replacedBodies: {},
  rateLimitHeaders: "seconds",
  omitTotalPages: false,
};
