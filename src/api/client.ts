import type { ServiceConfig } from "./config";
import { ApiError, errorFromFetchFailure, errorFromResponse } from "./errors";
import type { TokenManager } from "./tokens";

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

export interface Account {
  id: number;
  name: string;
}

export interface Pagination {
  current_page: number;
  total_pages: number;
  total_count: number;
  per_page: number;
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((item) => params.append(name, String(item)));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

/**
 * HTTP to the service: bearer token on every request, JSON in and out, errors as ApiError values.
 * A 401 renews the token once and retries; a second 401 means the sign-in itself is no longer good.
 */
export class ServiceClient {
  private readonly fetchImpl: typeof fetch;

  constructor(
    readonly config: ServiceConfig,
    private readonly tokens: TokenManager,
    fetchImpl?: typeof fetch,
  ) {
    this.fetchImpl = fetchImpl ?? ((input, init) => fetch(input, init));
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = `${this.config.serviceUrl}${path}${queryString(options.query)}`;
    for (let attempt = 0; ; attempt++) {
      const token = await this.tokens.token();
      const response = await this.send(url, method, token, options);
      if (response.status === 401 && attempt === 0) {
        await response.body?.cancel();
        this.tokens.invalidate(token);
        continue;
      }
      if (!response.ok) throw await errorFromResponse(response);
      if (response.status === 204) return undefined as T;
      try {
        return (await response.json()) as T;
      } catch {
        throw new ApiError("server", `The service sent an unreadable answer for ${path}.`);
      }
    }
  }

  private async send(url: string, method: string, token: string, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: "application/json" };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    try {
      return await this.fetchImpl(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (error) {
      throw errorFromFetchFailure(error, options.signal);
    }
  }

  /** Every account the signed-in client may act for, across all pages. */
  async listAccounts(signal?: AbortSignal): Promise<Account[]> {
    const accounts: Account[] = [];
    for (let page = 1; ; page++) {
      const result = await this.request<{ data: Account[]; pagination: Pagination }>("GET", "/v1/accounts", {
        query: { page, per_page: 100 },
        signal,
      });
      accounts.push(...result.data);
      if (page >= result.pagination.total_pages) return accounts;
    }
  }
}
