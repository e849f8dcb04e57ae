/**
 * What the sandbox saw, read at the sandbox: requests per route path (its own counters) and responses per
 * status code (a listener on its HTTP server, since the counters do not record answers, e.g. 429s).
 */
import type { RunningSandbox } from "../../sandbox/server";

export const TOKEN_PATH = "/oauth/token";

export type Counts = Record<string, number>;

export interface SandboxTraffic {
  /** Requests per route path and responses per status since the traffic was opened. */
  snapshot(): { requests: Counts; statuses: Counts };
}

export function watchTraffic(sandbox: RunningSandbox): SandboxTraffic {
  const statuses: Counts = {};
  sandbox.app.server.on("request", (_request, response) => {
    response.on("finish", () => {
      const status = String(response.statusCode);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
  return { snapshot: () => ({ requests: sandbox.counters.snapshot(), statuses: { ...statuses } }) };
}

/** Per key: `after` minus `before`, keeping only keys that changed. */
export function difference(before: Counts, after: Counts): Counts {
  const changed: Counts = {};
  for (const [key, count] of Object.entries(after)) {
    const delta = count - (before[key] ?? 0);
    if (delta !== 0) changed[key] = delta;
  }
  return changed;
}

export function total(counts: Counts): number {
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

/** Data API requests: everything but the token endpoint. */
export function dataRequests(counts: Counts): number {
  return Object.entries(counts).reduce((sum, [path, count]) => (path === TOKEN_PATH ? sum : sum + count), 0);
}
