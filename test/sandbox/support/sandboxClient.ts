import { DEMO_CLIENTS, type DemoClient } from "../../../sandbox/data/clients";
import type { RunningSandbox } from "../../../sandbox/server";
import { responseProblems } from "./contractValidator";

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export function demoClient(clientId: string): DemoClient {
  const client = DEMO_CLIENTS.find((candidate) => candidate.clientId === clientId);
  if (!client) throw new Error(`No demo client ${clientId}`);
  return client;
}

export interface RequestInit {
  json?: unknown;
  rawBody?: string;
  contentType?: string;
  token?: string;
  headers?: Record<string, string>;
  /** For deliberate HTTP-level failures the contract does not describe (413, 415, unknown routes). */
  outsideContract?: boolean;
}

/**
 * A small HTTP client for tests: real requests to the sandbox over 127.0.0.1. Every answer to a
 * contract operation is checked against the contract (status, headers, body), so each test is
 * also a contract test.
 */
export class SandboxClient {
  private readonly tokens = new Map<string, string>();

  constructor(readonly sandbox: RunningSandbox) {}

  async token(clientId: string): Promise<string> {
    const cached = this.tokens.get(clientId);
    if (cached) return cached;
    const client = demoClient(clientId);
    const response = await this.request("POST", "/oauth/token", {
      json: {
        grant_type: "client_credentials",
        client_id: client.clientId,
        client_secret: client.clientSecret,
      },
    });
    if (response.status !== 200) throw new Error(`Token request failed: ${response.status} ${response.text}`);
    const token = (response.body as { access_token: string }).access_token;
    this.tokens.set(clientId, token);
    return token;
  }

  forgetTokens(): void {
    this.tokens.clear();
  }

  async request<T = unknown>(method: string, path: string, init: RequestInit = {}): Promise<JsonResponse<T>> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body: string | undefined;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.rawBody !== undefined) {
      headers["content-type"] = init.contentType ?? "application/json";
      body = init.rawBody;
    }
    const response = await fetch(this.sandbox.url + path, { method, headers, body, redirect: "manual" });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
    const result = { status: response.status, headers: response.headers, body: parsed as T, text };
    if (!init.outsideContract) {
      const problems = responseProblems(method, path, result);
      if (problems.length > 0)
        throw new Error(`Contract violation by ${method} ${path}:\n${problems.join("\n")}`);
    }
    return result;
  }

  /** An authenticated request as the given demo client. */
  async as<T = unknown>(
    clientId: string,
    method: string,
    path: string,
    init: Omit<RequestInit, "token"> = {},
  ): Promise<JsonResponse<T>> {
    return this.request<T>(method, path, { ...init, token: await this.token(clientId) });
  }
}
