import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance } from "fastify";
import { API_BASE_PATH } from "../src/api/client";
import { FreshnessSchedule } from "../src/data/freshnessSchedule";
import { ResponseCache } from "../src/data/responseCache";
import { registerJsonBodyParser } from "./jsonBody";
import { DEFAULT_OPS_HOST, type RelayOptions } from "./options";
import {
  BODY_LIMIT_BYTES,
  DEFAULT_REQUEST_TIMEOUTS,
  guardRequestBodies,
  serverTimeoutOptions,
} from "./requestGuards";
import { registerApiRoutes } from "./routes/apiRoutes";
import { redactDownloadPath } from "./routes/jobRoutes";
import { CachedReads } from "./routes/cachedReads";
import { registerHealthRoute, registerOpsRoutes, storePassword } from "./status/opsRoutes";
import { RelayStats } from "./status/relayStats";
import { registerStatusRoutes } from "./status/statusRoutes";
import type { RelayStore } from "./store/relayStore";
import { openRelayStore } from "./store/openStore";
import { withClientSignal } from "./upstream/clientSignal";
import { Interests } from "./upstream/interests";
import { REAL_CLOCK } from "./upstream/relayClock";
import { ReportedLimit, TeamGate } from "./upstream/teamGate";
import { Upstream } from "./upstream/upstream";
import { createUpstreamFetch } from "./upstream/upstreamFetch";

export type { RelayOptions } from "./options";

export interface RunningRelay {
  url: string;
  app: FastifyInstance;
  /** The ops listener (/healthz, /readyz, /metrics), apart from the public one: 127.0.0.1 by default. */
  opsUrl: string;
  ops: FastifyInstance;
  store: RelayStore;
  stats: RelayStats;
  upstream: Upstream;
  /** The team's door to the service (who waits, for the status page and tests). */
  gate: TeamGate;
  close(): Promise<void>;
}

/** Never logged, whatever a log line holds: keys, tokens and the relay's own secret. */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "authorization",
  "key",
  "clientSecret",
  "client_secret",
  "access_token",
];

export async function openStore(
  options: Pick<RelayOptions, "store" | "clock">,
  warn: (message: string) => void,
): Promise<RelayStore> {
  return openRelayStore(options.store, { warn, claim: true, now: (options.clock ?? REAL_CLOCK).now });
}

/**
 * The team relay: the built add-in at `/`, the service's API at `/api/v1/...` (personal keys, account
 * filtering, one budget, one cache, batching across people), export downloads at `/api/downloads/...`,
 * and the admins' status at `/relay/`.
 */
export async function startRelay(options: RelayOptions): Promise<RunningRelay> {
  const timeouts = { ...DEFAULT_REQUEST_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger:
      options.log === false
        ? false
        : {
            level: options.logLevel,
            stream: options.log,
            redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
            // A download link works for its owner only, but it is still nobody's business in a log file.
            serializers: {
              req: (request: { method: string; url: string; id?: string }) => ({
                id: request.id,
                method: request.method,
                url: redactDownloadPath(request.url),
              }),
            },
          },
    bodyLimit: BODY_LIMIT_BYTES,
    ...serverTimeoutOptions(timeouts),
  });
  registerJsonBodyParser(app);
  // Every handler knows whether its client is still there; upstream calls stop when it is not.
  app.addHook("onRoute", withClientSignal);
  const clock = options.clock ?? REAL_CLOCK;
  const store = await openStore(options, (message) => app.log.warn(message));
  const limit = new ReportedLimit(options.pacing);
  const stats = new RelayStats(store.counters, limit, options.now);
  const gate = new TeamGate(store.budget, limit, { clock, maxQueuedPerPerson: options.maxQueuedPerPerson });
  const interests = new Interests();
  const apiBase = `${options.upstream.serviceUrl}${API_BASE_PATH}`;
  const fetchUpstream = createUpstreamFetch({
    apiBase,
    gate,
    limit,
    budget: store.budget,
    flights: store.flights,
    stats,
    fetch: stats.metrics.observe((input, init) => fetch(input, init), apiBase),
    interests,
    clock,
    deadlineMs: options.upstreamDeadlineMs,
  });
  const cache = new ResponseCache({
    store: store.cache,
    now: clock.now,
    schedule: new FreshnessSchedule(options.postingTime),
  });
  const upstream = new Upstream(
    options.upstream,
    options.credentials,
    fetchUpstream,
    cache,
    options.batchWindowMs,
    interests,
    clock,
  );
  const reads = new CachedReads(upstream, stats, clock.now);

  guardRequestBodies(app, store.users, BODY_LIMIT_BYTES);
  registerApiRoutes(app, { upstream, store, stats, reads, downloadOrigins: options.downloadOrigins });
  registerStatusRoutes(app, store, stats, gate);
  registerHealthRoute(app);
  // Readiness and metrics tell how the relay and its credentials fare: for the people who run it, on a
  // listener of its own that the public port does not reach.
  const ops = Fastify({ logger: false, ...serverTimeoutOptions(timeouts) });
  registerOpsRoutes(ops, {
    store,
    metrics: stats.metrics,
    serviceToken: () => upstream.tokens.token(),
    waiting: () => gate.waiting(),
    secrets: [options.credentials.clientSecret, storePassword(options.store) ?? ""],
  });
  const dist = path.resolve(options.distDirectory);
  if (existsSync(dist)) await app.register(fastifyStatic, { root: dist, prefix: "/" });
  else
    app.get("/", async (_, reply) =>
      reply.type("text/plain").send(`The add-in is not built: run "npm run build" (looked for ${dist}).`),
    );

  const address = await app.listen({ host: options.host, port: options.port });
  const url = address.replace("[::1]", "localhost");
  let opsUrl: string;
  try {
    opsUrl = await ops.listen({ host: options.opsHost ?? DEFAULT_OPS_HOST, port: options.opsPort ?? 0 });
  } catch (error) {
    await app.close();
    await store.close();
    throw error;
  }
  return {
    url,
    app,
    opsUrl: opsUrl.replace("[::1]", "localhost"),
    ops,
    store,
    stats,
    upstream,
    gate,
    close: async () => {
      await ops.close();
      await app.close();
      await store.close();
    },
  };
}
