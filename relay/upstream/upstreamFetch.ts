import { createHash } from "node:crypto";
import { currentUser } from "../requestContext";
import type { RelayStats } from "../status/relayStats";
import type { Budget, Flights, SharedResponse } from "../store/relayStore";
import type { ReportedLimit, TeamGate } from "./teamGate";

/** How long other instances wait on a claimed request before sending it themselves. */
const FLIGHT_TIMEOUT_MS = 60_000;

export interface UpstreamFetchParts {
  gate: TeamGate;
  limit: ReportedLimit;
  budget: Budget;
  flights: Flights;
  stats: RelayStats;
  fetch?: typeof fetch;
  now?: () => number;
}

/** Reads answer the same whoever sends them; job submissions, cancellations and downloads are not shared. */
function shareable(method: string, url: URL): boolean {
  if (url.pathname.includes("/bulk_api/")) return false;
  return method === "GET" || method === "POST";
}

async function bodyText(body: RequestInit["body"]): Promise<string> {
  if (body === undefined || body === null) return "";
  if (typeof body === "string") return body;
  return new Response(body).text();
}

function toShared(response: Response, body: ArrayBuffer): SharedResponse {
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(body).toString("base64"),
  };
}

function fromShared(shared: SharedResponse): Response {
  const nullBody = shared.status === 204 || shared.status === 304;
  return new Response(nullBody ? null : Buffer.from(shared.body, "base64"), {
    status: shared.status,
    headers: shared.headers,
  });
}

/**
 * The fetch every upstream request of the relay goes through (the token request aside). Identical reads in
 * flight anywhere in the team are sent once (single-flight through the store); every request that is sent
 * waits its turn at the team gate; the service's reported limit and its 429 pauses are learned here.
 */
export function createUpstreamFetch(parts: UpstreamFetchParts): typeof fetch {
  const fetchImpl = parts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const now = parts.now ?? Date.now;

  const send = async (url: URL, init: RequestInit | undefined): Promise<Response> => {
    const user = currentUser();
    await parts.gate.acquire(user);
    const response = await fetchImpl(url, init);
    // The path below the service's base URL: the contract's own path (`/v1/...`).
    const path = url.pathname.slice(url.pathname.indexOf("/v1/"));
    await parts.stats.upstreamSent(user, init?.method ?? "GET", path);
    parts.limit.learn(response.headers);
    if (response.status === 429) {
      await parts.stats.rateLimited();
      const retryAfter = Number(response.headers.get("retry-after"));
      // Not a plain number of seconds: back off as long as a whole window, as teams on the live service do.
      const waitMs =
        Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : parts.limit.current.windowMs;
      await parts.budget.pauseUntil(now() + waitMs);
    }
    return response;
  };

  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input));
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const body =
      request && init?.body === undefined ? await request.clone().text() : await bodyText(init?.body);
    const headers = new Headers(request?.headers);
    for (const [name, value] of new Headers(init?.headers)) headers.set(name, value);
    const forward: RequestInit = {
      method,
      headers,
      body: body === "" ? undefined : body,
      signal: init?.signal ?? request?.signal,
      redirect: init?.redirect ?? "follow",
    };
    if (!shareable(method, url)) return send(url, forward);

    const key = createHash("sha256").update(`${method} ${url.href}\n${body}`).digest("hex");
    if (!(await parts.flights.claim(key, FLIGHT_TIMEOUT_MS))) {
      const answer = await parts.flights.waitFor(key, FLIGHT_TIMEOUT_MS);
      if (answer) {
        await parts.stats.sharedAnswer();
        return fromShared(answer);
      }
      return send(url, forward);
    }
    let shared: SharedResponse | undefined;
    try {
      const response = await send(url, forward);
      const bytes = await response.arrayBuffer();
      shared = toShared(response, bytes);
      return fromShared(shared);
    } finally {
      await parts.flights.finish(key, shared);
    }
  };
}
