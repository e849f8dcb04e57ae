import { sendAuthorized } from "../../src/api/authorizedSend";
import { API_BASE_PATH, ServiceClient, type TypedSend } from "../../src/api/client";
import type { ServiceConfig } from "../../src/api/config";
import { ApiError } from "../../src/api/errors";
import { upstreamBody, upstreamTarget, type OperationRequest } from "../../src/api/operations";
import { TokenManager } from "../../src/api/tokens";
import { DataLayer } from "../../src/data/dataLayer";
import { ResponseCache } from "../../src/data/responseCache";
import { DATA_LAYER_GATE } from "./dataLayerGate";
import { Interests } from "./interests";
import { REAL_CLOCK, type RelayClock } from "./relayClock";

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

/**
 * What a person is told when the service refuses the relay's own credentials (after one renewal): not a 401,
 * which the add-in reads as "your personal key was revoked", but a 502 that says whose sign-in failed.
 */
export const RELAY_CREDENTIALS_REFUSED =
  "The service did not accept the team relay's own credentials (its client id or secret was not accepted, or its renewed token was refused). This is not about your personal key: ask your relay admin to check the relay's service credentials.";

export function relayCredentialsRefused(cause?: ApiError): ApiError {
  const said = cause?.details.serviceMessage;
  return new ApiError(
    "unauthorized",
    said ? `${RELAY_CREDENTIALS_REFUSED} (The service said: ${said}.)` : RELAY_CREDENTIALS_REFUSED,
    {
      serviceMessage: "Bad Gateway",
    },
  );
}

/** The relay's answer in place of a service 401 that outlived a token renewal. */
function credentialsRefusedAnswer(): UpstreamAnswer {
  return {
    status: 502,
    headers: new Headers({ "content-type": "application/json" }),
    body: Buffer.from(JSON.stringify({ error: "Bad Gateway", message: RELAY_CREDENTIALS_REFUSED })),
  };
}

/** A refused sign-in (token request or a 401 after renewal) is the relay's, and said so. */
function asRelayError(error: unknown): unknown {
  return error instanceof ApiError && error.kind === "unauthorized" ? relayCredentialsRefused(error) : error;
}

/** The add-in's typed client, with the relay's wording of its own refused credentials. */
class RelayServiceClient extends ServiceClient {
  override async call<T>(send: TypedSend<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await super.call(send, signal);
    } catch (error) {
      throw asRelayError(error);
    }
  }
}

/**
 * The relay's side of the service: one token for the team (renewed before it lapses), the add-in's own data
 * layer (batching, coalescing, cache keys) over the shared store, and plain forwarding for the rest.
 */
export class Upstream {
  readonly tokens: TokenManager;
  readonly client: ServiceClient;
  readonly data: DataLayer;
  readonly cache: ResponseCache;
  /** Who waits for which batched call (batched reads register; the upstream fetch reads it at the gate). */
  readonly interests: Interests;

  constructor(
    readonly config: ServiceConfig,
    credentials: UpstreamCredentials,
    private readonly fetchUpstream: typeof fetch,
    cache: ResponseCache,
    batchWindowMs: number,
    interests: Interests = new Interests(),
    clock: RelayClock = REAL_CLOCK,
  ) {
    this.tokens = new TokenManager({
      tokenUrl: config.tokenUrl,
      credentials: { kind: "client", ...credentials },
      now: clock.now,
    });
    this.client = new RelayServiceClient(config, this.tokens, fetchUpstream);
    this.cache = cache;
    this.data = new DataLayer({
      client: this.client,
      caller: credentials.clientId,
      cache,
      gate: DATA_LAYER_GATE,
      // One retry policy, the add-in's at the edge: retries here would spend the team's budget twice over
      // and hold the person past their own bound; a 429 goes back to them with its wait.
      retry: { maxAttempts: 1, maxRateLimitWaits: 0 },
      batchWindowMs,
      quotaGuard: { holdsPulls: false },
      now: clock.now,
      sleep: clock.sleep,
    });
    this.interests = interests;
  }

  /**
   * One operation of the contract, its path, query and body rebuilt from its typed values (never the arriving
   * spelling), sent as `forward` sends.
   */
  send(
    request: OperationRequest,
    signal: AbortSignal | undefined,
    redirect: RequestRedirect = "manual",
  ): Promise<UpstreamAnswer> {
    return this.forward(
      request.operation.method,
      `${API_BASE_PATH}${upstreamTarget(request)}`,
      upstreamBody(request),
      signal,
      redirect,
    );
  }

  /**
   * The path `/v1/...` with its query string, sent with the team's token; a 401 renews the token once (the
   * add-in's own loop, `sendAuthorized`), and a second is answered in the relay's words. It stops when
   * `signal` fires: the signal of the client it is sent for (`request.clientSignal`), which goes away.
   */
  async forward(
    method: string,
    pathAndQuery: string,
    body: string | undefined,
    signal: AbortSignal | undefined,
    redirect: RequestRedirect = "manual",
  ): Promise<UpstreamAnswer> {
    const url = `${this.config.serviceUrl}${pathAndQuery}`;
    const send = async (authorization: string) => {
      const headers: Record<string, string> = {
        Authorization: authorization,
        Accept: "application/json, */*",
      };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      try {
        return { response: await this.fetchUpstream(url, { method, headers, body, redirect, signal }) };
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw new ApiError("offline", "The relay could not reach the service. Try again in a moment.");
      }
    };
    let response: Response;
    try {
      ({ response } = await sendAuthorized(this.tokens, send));
    } catch (error) {
      throw asRelayError(error);
    }
    if (response.status === 401) {
      await response.body?.cancel();
      return credentialsRefusedAnswer();
    }
    return {
      status: response.status,
      headers: response.headers,
      body: Buffer.from(await response.arrayBuffer()),
    };
  }
}
