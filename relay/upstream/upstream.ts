import { ServiceClient } from "../../src/api/client";
import type { ServiceConfig } from "../../src/api/config";
import { ApiError } from "../../src/api/errors";
import { TokenManager } from "../../src/api/tokens";
import { DataLayer } from "../../src/data/dataLayer";
import { ResponseCache } from "../../src/data/responseCache";

/** The relay's own credentials at the service: read from the environment or a file, never sent anywhere else. */
export interface UpstreamCredentials {
  clientId: string;
  clientSecret: string;
}

/** A service answer as the relay hands it on. */
export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** Headers of a service answer worth passing on to the add-in (rate limits, file names, redirects). */
export const PASSED_HEADERS = [
  "content-type",
  "content-disposition",
  "location",
  "retry-after",
  "x-ratelimit-limit",
  "x-ratelimit-reset-after",
  "x-ratelimit-reset",
];

/** The data layer's own pacing stays out of the way: the team gate inside `fetch` paces every request. */
const UNPACED = { limit: 1_000_000_000, windowMs: 1000, burst: 1_000_000_000 };

/**
 * The relay's side of the service: one token for the team (renewed before it lapses), the add-in's own data
 * layer (batching, coalescing, cache keys) over the shared store, and plain forwarding for the rest.
 */
export class Upstream {
  readonly tokens: TokenManager;
  readonly client: ServiceClient;
  readonly data: DataLayer;
  readonly cache: ResponseCache;

  constructor(
    readonly config: ServiceConfig,
    credentials: UpstreamCredentials,
    private readonly fetchUpstream: typeof fetch,
    cache: ResponseCache,
    batchWindowMs: number,
  ) {
    this.tokens = new TokenManager({
      tokenUrl: config.tokenUrl,
      credentials: { kind: "client", ...credentials },
    });
    this.client = new ServiceClient(config, this.tokens, fetchUpstream);
    this.cache = cache;
    this.data = new DataLayer({
      client: this.client,
      caller: credentials.clientId,
      cache,
      pacing: UNPACED,
      maxInFlight: 32,
      batchWindowMs,
    });
  }

  /** The path `/v1/...` with its query string, sent with the team's token; a 401 renews the token once. */
  async forward(
    method: string,
    pathAndQuery: string,
    body: string | undefined,
    redirect: RequestRedirect = "manual",
  ): Promise<UpstreamAnswer> {
    const url = `${this.config.serviceUrl}${pathAndQuery}`;
    for (let attempt = 0; ; attempt++) {
      const token = await this.tokens.token();
      const headers: Record<string, string> = {
        Authorization: `Bearer ${token}`,
        Accept: "application/json, */*",
      };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      let response: Response;
      try {
        response = await this.fetchUpstream(url, { method, headers, body, redirect });
      } catch {
        throw new ApiError("offline", "The relay could not reach the service. Try again in a moment.");
      }
      if (response.status === 401 && attempt === 0) {
        await response.body?.cancel();
        this.tokens.invalidate(token);
        continue;
      }
      return {
        status: response.status,
        headers: response.headers,
        body: Buffer.from(await response.arrayBuffer()),
      };
    }
  }
}
