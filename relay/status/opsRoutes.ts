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

/**
 * For the people who run the relay: `GET /healthz` (the process answers), `GET /readyz` (the store answers
 * and the service accepts the relay's credentials; 503 with the failing check otherwise) and `GET /metrics`
 * (Prometheus text). None needs a key; none names a person or shows a secret.
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

  app.get("/healthz", async (_, reply) => reply.header("Cache-Control", "no-store").send({ status: "ok" }));

  app.get("/readyz", async (_, reply) => {
    const [store, service] = await Promise.all([
      check(() => parts.store.ping(), "The store"),
      check(() => parts.serviceToken(), "The service's token endpoint"),
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
