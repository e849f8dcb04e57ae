import type { FastifyReply, FastifyRequest } from "fastify";
import type { BulkExportQuota } from "./auth/bulkExportQuota";
import type { RateLimiter } from "./auth/rateLimiter";
import type { IssuedToken, TokenStore } from "./auth/tokenStore";
import type { SandboxClock } from "./clock";
import type { ContractOperation } from "./contract/operations";
import type { ValidatedInput } from "./contract/requestValidator";
import type { DemoClient } from "./data/clients";
import type { Dataset } from "./data/dataset";
import type { FaultController } from "./faults/faultController";
import type { RequestCounters } from "./faults/requestCounters";
import type { DownloadSigner } from "./jobs/downloadSigner";
import type { JobStore } from "./jobs/jobStore";
import type { JobWorker } from "./jobs/jobWorker";
import type { SandboxOptions } from "./options";

/** Who is calling: set by the bearer-token check on every authenticated operation. */
export interface CallerIdentity {
  token: IssuedToken;
  client: DemoClient;
}

/** The state shared by every part of one sandbox instance. */
export interface SandboxContext {
  options: SandboxOptions;
  clock: SandboxClock;
  tokens: TokenStore;
  rateLimiter: RateLimiter;
  counters: RequestCounters;
  faults: FaultController;
  quota: BulkExportQuota;
  /** The synthetic data (built on first use, shared by sandboxes with the same seed and size). */
  dataset(): Dataset;
  jobs: JobStore;
  worker: JobWorker;
  signer: DownloadSigner;
  /** Origin of the download server once it listens, e.g. "http://127.0.0.1:4011". */
  downloadOrigin: string | undefined;
}

export type OperationHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;

/** Handlers keyed by the contract's operationId. */
export type OperationHandlers = Record<string, OperationHandler>;

declare module "fastify" {
  interface FastifyContextConfig {
    operation?: ContractOperation;
  }
  interface FastifyRequest {
    caller: CallerIdentity | null;
    validated: ValidatedInput | null;
  }
}

/** The caller of an authenticated operation (the auth hook guarantees one). */
export function callerOf(request: FastifyRequest): CallerIdentity {
  if (!request.caller) throw new Error("Operation reached without an authenticated caller");
  return request.caller;
}

/** The validated input of an operation (the validation hook guarantees one). */
export function inputOf(request: FastifyRequest): ValidatedInput {
  if (!request.validated) throw new Error("Operation reached without validated input");
  return request.validated;
}
