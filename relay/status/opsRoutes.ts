import type { FastifyInstance } from "fastify";
import type { RelayStore } from "../store/relayStore";
import type { RelayMetrics } from "./metrics";

/** How long a readiness check waits for the store or the service's token endpoint. */
const CHECK_DEADLINE_MS = 5000;

export interface OpsParts {
  store: RelayStore;
  metrics: RelayMetrics;
  /** A valid token of the relay at the service (renewed when needed): proof its credentials are accepted. */
  serviceToken: () => Promise<string>;
  waiting: () => Record<string, number>;
  /** Texts that must never appear in an answer: the client secret, the store URL's password. */
  secrets: string[];
  now?: () => number;
}

/** The password of a store URL such as redis://:password@host:6379, or undefined. */
export function storePassword(store: string): string | undefined {
  try {
    const url = new URL(store);
    const password = decodeURIComponent(url.password);
    return password === "" ? undefined : password;
  } catch {
    return undefined;
  }
}

function withDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${CHECK_DEADLINE_MS / 1000} s`)),
      CHECK_DEADLINE_MS,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** How long a refused or failed service check is reused at first; it doubles while the service keeps refusing. */
export const FIRST_BACKOFF_MS = 10_000;
export const LONGEST_BACKOFF_MS = 5 * 60_000;

/** `GET /healthz`: the process answers (a load balancer's probe; on the public listener too). */
export function registerHealthRoute(app: FastifyInstance): void {
  app.get("/healthz", async (_, reply) => reply.header("Cache-Control", "no-store").send({ status: "ok" }));
}

/**
 * For the people who run the relay, on its ops listener (127.0.0.1 by default, never the public port):
 * `GET /healthz` (the process answers), `GET /readyz` (the store answers and the service accepts the relay's
 * credentials; 503 with the failing check otherwise) and `GET /metrics` (Prometheus text). None needs a key;
 * none names a person or shows a secret. A refused service check is reused for 10 s, then twice as long each
 * time it fails again (up to 5 min), so asking /readyz in a loop sends the token endpoint one request per
 * interval, not one per call (a refused secret must not become a flood of sign-ins).
 */
export function registerOpsRoutes(app: FastifyInstance, parts: OpsParts): void {
  const now = parts.now ?? Date.now;
  const secrets = parts.secrets.filter((secret) => secret.length > 0);
  const scrub = (text: string) =>
    secrets.reduce((clean, secret) => clean.split(secret).join("[redacted]"), text);
  const check = async (work: () => Promise<unknown>, what: string): Promise<string> => {
    try {
      await withDeadline(work(), what);
      return "ok";
    } catch (error) {
      return scrub(error instanceof Error ? error.message : String(error));
    }
  };
  // The service check's last failure, reused until `until`: a valid token is kept by the token manager, so
  // only a refusal would cost the token endpoint a request per call.
  let failed: { reason: string; until: number } | undefined;
  let pending: Promise<string> | undefined;
  let backoffMs = FIRST_BACKOFF_MS;
  const checkService = async (): Promise<string> => {
    const service = await check(() => parts.serviceToken(), "The service's token endpoint");
    if (service === "ok") {
      failed = undefined;
      backoffMs = FIRST_BACKOFF_MS;
    } else {
      failed = { reason: service, until: now() + backoffMs };
      backoffMs = Math.min(LONGEST_BACKOFF_MS, backoffMs * 2);
    }
    return service;
  };
  const serviceReadiness = (): Promise<string> => {
    if (failed && now() < failed.until) return Promise.resolve(failed.reason);
    // Callers at the same moment share one check.
    return (pending ??= checkService().finally(() => (pending = undefined)));
  };

  registerHealthRoute(app);

  app.get("/readyz", async (_, reply) => {
    const [store, service] = await Promise.all([
      check(() => parts.store.ping(), "The store"),
      serviceReadiness(),
    ]);
    const ready = store === "ok" && service === "ok";
    return reply
      .code(ready ? 200 : 503)
      .header("Cache-Control", "no-store")
      .send({ status: ready ? "ready" : "not ready", checks: { store, service } });
  });

  app.get("/metrics", async (_, reply) => {
    const text = await parts.metrics.render({
      waiting: parts.waiting,
      pausedUntil: () => parts.store.budget.pausedUntil(),
      now,
    });
    return reply
      .header("Cache-Control", "no-store")
      .type("text/plain; version=0.0.4; charset=utf-8")
      .send(text);
  });
}
