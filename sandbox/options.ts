import type { RateLimitMode } from "./auth/rateLimiter";
import type { ReportType } from "./jobs/jobStore";
import type { FaultSettings } from "./faults/faultSettings";
import { NO_FAULTS } from "./faults/faultSettings";
import type { BodyFieldRename } from "./http/renamedBodyFields";
import type { SandboxVariant } from "./variant";

/** Everything that can be tuned when starting a sandbox. Defaults mirror the live service. */
export interface RequestLogDestination {
  stream: { write(line: string): void };
}

export interface SandboxOptions {
  /** Interface to listen on. */
  host: string;
  /** API port; 0 picks a free port. */
  port: number;
  /** Port of the separate download origin that serves export files; 0 picks a free port. */
  downloadPort: number;
  /** Seed of the synthetic dataset: the same seed always gives the same data. */
  seed: number;
  /** Number of synthetic properties. */
  propertyCount: number;
  /** Browser origins allowed by CORS on the API (the add-in's origin). */
  corsOrigins: string[];
  /** Whether the download origin answers CORS for any origin (storage set up for browsers) or not at all. */
  downloadCors: boolean;
  /** Lifetime of client-credentials tokens in seconds (live service: 7200). */
  tokenLifetimeSeconds: number;
  /** Freeze the clock at this instant (ISO string or epoch ms); real time when absent. */
  now?: string | number;
  /** Requests allowed per token per window. */
  rateLimit: number;
  /** Length of the rate-limit window in seconds. */
  rateLimitWindowSeconds: number;
  /** A fixed window per token, or a rolling window that tightens after bursts (as seen on the live service). */
  rateLimitMode: RateLimitMode;
  /** Unique properties an account may receive from bulk details and property search. */
  bulkExportQuota: number;
  /** Delay before the background worker picks up a submitted export job (ms). */
  jobStartDelayMs: number;
  /** Exports producing more rows than this fail with an error_message instead of being written. */
  jobMaxRows: number;
  /** Export jobs generating at once; later ones wait (still `submitted`) for a free slot. */
  jobConcurrency: number;
  /**
   * Share of the live service's end-to-end job time (by size, the contract's `x-expected-duration`) a job
   * takes on the sandbox clock: 1 = live-like (30 s for one property-month, minutes for more), 0 = done as soon
   * as its file is written. 0 here, for tests and benchmarks; the CLI (`npm run sandbox`, `npm start`) uses 1.
   */
  jobTimeScale: number;
  /** Jobs of this report type are accepted and never end (stay `submitted`), as one live job did. */
  jobStallReportType?: ReportType;
  /** Where export files are written; a fresh temporary directory when absent. */
  exportDirectory?: string;
  /** Key of the HMAC-SHA256 signature sent with job callbacks. */
  webhookSecret: string;
  /** Callback delivery attempts before giving up. */
  webhookMaxAttempts: number;
  /** Delay before the first callback retry; doubles after each failure (ms). */
  webhookRetryBaseDelayMs: number;
  /** Fault injection applied to data API requests from the start (unset fields: no fault). */
  faults: Partial<FaultSettings>;
  /** Request body fields expected under another name than the contract's (a service whose names changed). */
  renamedBodyFields: BodyFieldRename[];
  /** Enables the /admin routes (fault control, counters, clock, manual tokens). Off by default. */
  admin: boolean;
  /**
   * Fastify request logging (JSON lines): off by default to keep test output quiet; `true` writes to
   * stdout (CLI `--log`); `{ stream }` sends the lines elsewhere (tests read them).
   */
  logger: boolean | RequestLogDestination;
  /** Which of the observed answer forms the sandbox uses (sandbox/variant.ts). */
  variant: SandboxVariant;
}

export const DEFAULT_OPTIONS: SandboxOptions = {
  host: "127.0.0.1",
  port: 0,
  downloadPort: 0,
  seed: 1,
  propertyCount: 20_000,
  corsOrigins: ["https://localhost:3000"],
  downloadCors: true,
  tokenLifetimeSeconds: 7200,
  rateLimit: 100,
  rateLimitWindowSeconds: 300,
  rateLimitMode: "fixed",
  bulkExportQuota: 1_000_000,
  jobStartDelayMs: 200,
  jobMaxRows: 2_000_000,
  jobConcurrency: 2,
  jobTimeScale: 0,
  webhookSecret: "sandbox-webhook-secret",
  webhookMaxAttempts: 5,
  webhookRetryBaseDelayMs: 1000,
  faults: NO_FAULTS,
  renamedBodyFields: [],
  admin: false,
  logger: false,
  variant: "documented",
};

export function resolveOptions(overrides: Partial<SandboxOptions> = {}): SandboxOptions {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return {
    ...DEFAULT_OPTIONS,
    ...defined,
    faults: { ...NO_FAULTS, ...overrides.faults },
  };
}
