import cors from "@fastify/cors";
import formbody from "@fastify/formbody";
import Fastify, { type FastifyInstance } from "fastify";
import { RateLimiter } from "./auth/rateLimiter";
import { TokenStore } from "./auth/tokenStore";
import { SandboxClock } from "./clock";
import type { OperationHandlers, SandboxContext } from "./context";
import { contractOperations } from "./contract/operations";
import { precompile } from "./contract/requestValidator";
import { RequestCounters } from "./faults/requestCounters";
import { installRequestPipeline } from "./http/requestPipeline";
import { resolveOptions, type SandboxOptions } from "./options";
import { accountHandlers } from "./routes/accounts";
import { oauthTokenHandlers } from "./routes/oauthToken";

export type { SandboxOptions } from "./options";

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
  app: FastifyInstance;
  context: SandboxContext;
  clock: SandboxClock;
  counters: RequestCounters;
  close(): Promise<void>;
}

function createContext(options: SandboxOptions): SandboxContext {
  const clock = new SandboxClock(options.now);
  return {
    options,
    clock,
    tokens: new TokenStore(clock, options.tokenLifetimeSeconds),
    rateLimiter: new RateLimiter(clock, options.rateLimit, options.rateLimitWindowSeconds),
    counters: new RequestCounters(),
  };
}

function operationHandlers(context: SandboxContext): OperationHandlers {
  return { ...oauthTokenHandlers(context), ...accountHandlers() };
}

declare module "fastify" {
  interface FastifyInstance {
    sandbox: SandboxContext;
  }
}

/** Registers one route per contract operation; a contract operation without a handler is a startup error. */
function registerOperations(app: FastifyInstance, context: SandboxContext): void {
  const handlers = operationHandlers(context);
  const operations = contractOperations();
  precompile(operations);
  for (const operation of operations) {
    const handler = handlers[operation.operationId];
    if (!handler)
      throw new Error(`The sandbox has no handler for contract operation ${operation.operationId}`);
    app.route({ method: operation.method, url: operation.routePath, config: { operation }, handler });
  }
}

/** Builds the sandbox API (not listening). `app.sandbox` holds its state for programmatic control. */
export async function buildSandbox(overrides: Partial<SandboxOptions> = {}): Promise<FastifyInstance> {
  const options = resolveOptions(overrides);
  const context = createContext(options);
  const app = Fastify({ logger: options.logger, bodyLimit: BODY_LIMIT_BYTES });
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
  return app;
}

/** Builds and starts a sandbox; port 0 (the default) picks a free port. */
export async function startSandbox(overrides: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  const app = await buildSandbox(overrides);
  const context = app.sandbox;
  await app.listen({ host: context.options.host, port: context.options.port });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("The sandbox is not listening on a TCP port");
  const url = `http://${context.options.host}:${address.port}`;
  return {
    url,
    port: address.port,
    app,
    context,
    clock: context.clock,
    counters: context.counters,
    close: () => app.close(),
  };
}
