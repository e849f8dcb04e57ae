import type { FastifyReply, FastifyRequest } from "fastify";
import type { operations } from "../src/api/schema";
import type { BulkExportQuota } from "./auth/bulkExportQuota";
import type { RateLimiter } from "./auth/rateLimiter";
import type { IssuedToken, TokenStore } from "./auth/tokenStore";
import type { SandboxClock } from "./clock";
import type { ContractOperation } from "./contract/operations";
import type { ValidatedInput } from "../src/api/requestValidator";
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

export type OperationId = keyof operations;

/** The JSON body of an operation's 2xx answers, as the types generated from the contract say. */
export type SuccessBody<Id extends OperationId> = {
  [Status in keyof operations[Id]["responses"]]: Status extends 200 | 201 | 202
    ? operations[Id]["responses"][Status] extends { content: { "application/json": infer Body } }
      ? Body
      : never
    : never;
}[keyof operations[Id]["responses"]];

/**
 * One operation's handler: it answers with the contract's success body (so a shape that drifts from the
 * contract fails tsc), or with the reply it has already sent (an error, a redirect, a set status code).
 */
export type OperationHandler<Id extends OperationId = OperationId> = (
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<SuccessBody<Id> | FastifyReply> | SuccessBody<Id> | FastifyReply;

/** Handlers keyed by the contract's operationId: every operation of the contract has one. */
export type OperationHandlers = { [Id in OperationId]: OperationHandler<Id> };

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
