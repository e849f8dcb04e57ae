import createClient, { type Client } from "openapi-fetch";
import { sendAuthorized } from "./authorizedSend";
import type { ServiceConfig } from "./config";
import { ApiError, errorFromFetchFailure, errorFromStatus } from "./errors";
import { CONTRACT_OPERATIONS } from "./contractOperations";
import { inPlanTerms } from "./planLimits";
import { PlanSeen } from "./planSeen";
import { announcedLimit, type AnnouncedLimit } from "./rateLimitHeaders";
import type { components, paths } from "./schema";
import type { TokenManager } from "./tokens";

export type Account = components["schemas"]["Account"];
export type Pagination = components["schemas"]["Pagination"];

/** Where the contract's paths start below the service URL (the contract's server). */
export const API_BASE_PATH = "/v1";

/** The typed fetch client of the contract (paths relative to `{serviceUrl}/v1`). */
export type ContractClient = Client<paths>;

/** One typed operation: given the bearer header and a signal, send it with the contract client. */
export type TypedSend<T> = (context: CallContext) => Promise<TypedAnswer<T>>;

/** What every call hands to the typed client: the bearer header and the caller's signal. */
export interface CallContext {
  headers: { Authorization: string };
  signal?: AbortSignal;
}

/** The shape openapi-fetch answers with, whatever the operation. */
export interface TypedAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Where property records come whole (with every field the plan sees): what tells pro-plus from pro. */
const PROPERTY_DETAILS_PATH = CONTRACT_OPERATIONS.find(
  (operation) => operation.operationId === "getBulkPropertyDetails",
)?.path;

function propertyAttributes(body: unknown): Record<string, unknown>[] {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) return [];
  return data.flatMap((item: { attributes?: unknown }) =>
    typeof item?.attributes === "object" && item.attributes !== null
      ? [item.attributes as Record<string, unknown>]
      : [],
  );
}

function bodyText(error: unknown): string {
  if (error === undefined || error === null) return "";
  return typeof error === "string" ? error : JSON.stringify(error);
}

/**
 * HTTP to the service: the typed client generated from openapi.yaml, a bearer token on every request, errors
 * as ApiError values. A 401 renews the token once and retries (`sendAuthorized`); a second 401 means the
 * sign-in itself is no longer good. One `call` is one logical request; pacing and retries of failures belong
 * to src/data.
 */
export class ServiceClient {
  readonly api: ContractClient;
  /** Where the contract's paths start: `{serviceUrl}/v1`. */
  readonly apiBase: string;
  private readonly limitListeners = new Set<(limit: AnnouncedLimit) => void>();
  /** The caller's plan as this sign-in's answers show it (the service has no call that names it). */
  readonly plan = new PlanSeen();

  constructor(
    readonly config: ServiceConfig,
    private readonly tokens: TokenManager,
    fetchImpl?: typeof fetch,
  ) {
    const fetchNow = fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
    this.apiBase = `${config.serviceUrl}${API_BASE_PATH}`;
    this.api = createClient<paths>({ baseUrl: this.apiBase, fetch: fetchNow });
  }

  /**
   * Runs one typed operation, given the bearer header and the signal.
   * Returns the parsed body or throws an ApiError carrying the service's message.
   */
  async call<T>(send: TypedSend<T>, signal?: AbortSignal): Promise<T> {
    const answer = await sendAuthorized(this.tokens, async (authorization) => {
      let typed: TypedAnswer<T>;
      try {
        typed = await send({ headers: { Authorization: authorization }, signal });
      } catch (error) {
        if (error instanceof SyntaxError)
          throw new ApiError("server", "The service sent an unreadable answer.");
        throw errorFromFetchFailure(error, signal);
      }
      this.announce(typed.response.headers);
      return typed;
    });
    const { response } = answer;
    const path = this.operationPath(response.url);
    if (!response.ok) {
      const error = errorFromStatus(response.status, response.headers, bodyText(answer.error));
      if (error.kind === "forbidden") this.plan.sawOperation(path, false);
      throw inPlanTerms(error, path);
    }
    this.plan.sawOperation(path, true);
    if (path === PROPERTY_DETAILS_PATH) this.plan.sawPropertyRecords(propertyAttributes(answer.data));
    return answer.data as T;
  }

  /** A request URL's path relative to the contract's `{serviceUrl}/v1` ("/properties/bulk_details"). */
  private operationPath(url: string): string {
    try {
      const base = new URL(this.apiBase).pathname.replace(/\/$/, "");
      const path = new URL(url).pathname;
      return path.startsWith(base) ? path.slice(base.length) : path;
    } catch {
      return "";
    }
  }

  /** A valid access token of this sign-in (renewed when needed), for the connection check to reuse. */
  accessToken(): Promise<string> {
    return this.tokens.token();
  }

  /**
   * Tells `listener` of every limit the service announces in its headers (on a 429, and on any other answer
   * that carries them), so the client's pacing can follow the service instead of a number we assumed.
   * Returns the function that stops listening.
   */
  onAnnouncedLimit(listener: (limit: AnnouncedLimit) => void): () => void {
    this.limitListeners.add(listener);
    return () => this.limitListeners.delete(listener);
  }

  private announce(headers: Headers): void {
    const limit = announcedLimit(headers);
    if (limit) for (const listener of this.limitListeners) listener(limit);
  }
}
