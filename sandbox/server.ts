import { randomBytes } from "node:crypto";
import cors from "@fastify/cors";
import formbody from "@fastify/formbody";
import Fastify, { type FastifyInstance } from "fastify";
import { BulkExportQuota } from "./auth/bulkExportQuota";
import { RateLimiter } from "./auth/rateLimiter";
import { TokenStore } from "./auth/tokenStore";
import { SandboxClock } from "./clock";
import type { OperationHandlers, OperationId, SandboxContext } from "./context";
import { contractOperations } from "./contract/operations";
import { datasetFor, type Dataset } from "./data/dataset";
import { FaultController } from "./faults/faultController";
import { RequestCounters } from "./faults/requestCounters";
import { installRequestPipeline } from "./http/requestPipeline";
import { DownloadSigner } from "./jobs/downloadSigner";
import { buildDownloadServer } from "./jobs/downloadServer";
import { JobStore } from "./jobs/jobStore";
import { JobWorker } from "./jobs/jobWorker";
import { resolveOptions, type SandboxOptions } from "./options";
import { accountHandlers } from "./routes/accounts";
import { registerAdminRoutes } from "./routes/admin";
import { bulkJobHandlers } from "./routes/bulkJobs";
import { compSetHandlers } from "./routes/compSets";
import { exploreMarketHandlers } from "./routes/exploreMarkets";
import { shapeOf } from "./variant";
import { forecastHandlers } from "./routes/forecasts";
import { geoBoundaryHandlers } from "./routes/geoBoundaries";
import { narrativeHandlers } from "./routes/narratives";
import { oauthTokenHandlers } from "./routes/oauthToken";
import { propertyHandlers } from "./routes/properties";
import { propertySearchHandlers } from "./routes/propertySearch";

export type { SandboxOptions } from "./options";
export type { SandboxContext } from "./context";
export { MAX_BULK_DETAILS_IDS } from "./contract/limits";

/** Headers a browser client must be able to read on a 429. */
export const EXPOSED_HEADERS = [
  "X-RateLimit-Limit",
  "X-RateLimit-Reset-After",
  "X-RateLimit-Reset",
  "Retry-After",
];

/** Big enough that oversized arrays reach validation and get a 400 naming the limit. */
const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

export interface RunningSandbox {
  /** Origin of the API, e.g. "http://127.0.0.1:4010" (base_url = url, auth_url = url). */
  url: string;
  port: number;
  /** Origin of the download server that serves signed export links (a different port). */
  downloadUrl: string;
  app: FastifyInstance;
  context: SandboxContext;
  clock: SandboxClock;
  counters: RequestCounters;
  /** Fault injection (same object as context.faults). */
  faults: FaultController;
  /** The synthetic data this sandbox serves (same as context.dataset()). */
  dataset(): Dataset;
  close(): Promise<void>;
}

function createContext(options: SandboxOptions): SandboxContext {
  const clock = new SandboxClock(options.now);
  const jobs = new JobStore(clock);
  const dataset = () => datasetFor(options.seed, options.propertyCount);
  return {
    options,
    clock,
    tokens: new TokenStore(clock, options.tokenLifetimeSeconds),
    rateLimiter: new RateLimiter(
      clock,
      options.rateLimit,
      options.rateLimitWindowSeconds,
      options.rateLimitMode,
    ),
    counters: new RequestCounters(),
    faults: new FaultController(options.faults, options.seed),
    quota: new BulkExportQuota(options.bulkExportQuota),
    dataset,
    jobs,
    worker: new JobWorker(jobs, clock, dataset, {
      startDelayMs: options.jobStartDelayMs,
      maxRows: options.jobMaxRows,
      maxRunningJobs: options.jobConcurrency,
      timeScale: options.jobTimeScale,
      stallReportType: options.jobStallReportType,
      percentScale: shapeOf(options.variant).percentScale,
      exportDirectory: options.exportDirectory,
      webhook: {
        secret: options.webhookSecret,
        maxAttempts: options.webhookMaxAttempts,
        baseDelayMs: options.webhookRetryBaseDelayMs,
      },
    }),
    // A fresh key per sandbox: links from an earlier run stop working, as they should.
    signer: new DownloadSigner(randomBytes(32)),
    downloadOrigin: undefined,
  };
}

function operationHandlers(context: SandboxContext): OperationHandlers {
  return {
    ...oauthTokenHandlers(context),
    ...accountHandlers(),
    ...compSetHandlers(context),
    ...geoBoundaryHandlers(context),
    ...propertySearchHandlers(context),
    ...propertyHandlers(context),
    ...exploreMarketHandlers(context),
    ...narrativeHandlers(context),
    ...forecastHandlers(context),
    ...bulkJobHandlers(context),
  };
}

declare module "fastify" {
  interface FastifyInstance {
    sandbox: SandboxContext;
  }
}

/** Registers one route per contract operation; a contract operation without a handler is a startup error. */
function registerOperations(app: FastifyInstance, context: SandboxContext): void {
  const handlers = operationHandlers(context);
  for (const operation of contractOperations()) {
    const handler = handlers[operation.operationId as OperationId];
    if (!handler)
      throw new Error(`The sandbox has no handler for contract operation ${operation.operationId}`);
    app.route({ method: operation.method, url: operation.routePath, config: { operation }, handler });
  }
}

/**
 * Builds the sandbox API (not listening). `app.sandbox` holds its state for programmatic control.
 * Job results need the download server, which only startSandbox runs.
 */
export async function buildSandbox(overrides: Partial<SandboxOptions> = {}): Promise<FastifyInstance> {
  const options = resolveOptions(overrides);
  const context = createContext(options);
  // close() must not wait for clients' keep-alive connections (tests close sandboxes while clients linger).
  const app = Fastify({ logger: options.logger, bodyLimit: BODY_LIMIT_BYTES, forceCloseConnections: true });
  app.decorate("sandbox", context);
  await app.register(cors, {
    origin: options.corsOrigins,
    methods: ["GET", "POST", "DELETE", "OPTIONS"],
    allowedHeaders: ["Authorization", "Content-Type"],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  await app.register(formbody);
  installRequestPipeline(app, context);
  registerOperations(app, context);
  if (options.admin) registerAdminRoutes(app, context);
  app.addHook("onClose", () => context.worker.close());
  return app;
}

function originOf(app: FastifyInstance, host: string): { url: string; port: number } {
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("The server is not listening on a TCP port");
  return { url: `http://${host}:${address.port}`, port: address.port };
}

/** Builds and starts a sandbox and its download server; port 0 (the default) picks free ports. */
export async function startSandbox(overrides: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  const app = await buildSandbox(overrides);
  const context = app.sandbox;
  const downloads = await buildDownloadServer(context);
  try {
    await app.listen({ host: context.options.host, port: context.options.port });
    await downloads.listen({ host: context.options.host, port: context.options.downloadPort });
  } catch (error) {
    await Promise.all([app.close(), downloads.close()]);
    throw error;
  }
  const api = originOf(app, context.options.host);
  context.downloadOrigin = originOf(downloads, context.options.host).url;
  return {
    url: api.url,
    port: api.port,
    downloadUrl: context.downloadOrigin,
    app,
    context,
    clock: context.clock,
    counters: context.counters,
    faults: context.faults,
    dataset: context.dataset,
    close: async () => {
      await Promise.all([app.close(), downloads.close()]);
    },
  };
}
