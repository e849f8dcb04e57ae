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
}

export const NO_FAULTS: FaultSettings = {
  latencyMs: 0,
  errorRate: 0,
  rateLimitBurst: 0,
  dropRate: 0,
  emptyForbiddenBodies: false,
  replacedBodies: {},
};
