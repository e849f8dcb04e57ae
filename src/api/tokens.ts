import { ApiError, errorFromFetchFailure, errorFromResponse } from "./errors";
import { jwtExpiryMs } from "./jwtExpiry";

export type Credentials =
  | { kind: "client"; clientId: string; clientSecret: string }
  | { kind: "manual"; accessToken: string }
  /** A personal key of the team relay, which holds the service's credentials itself. */
  | { kind: "relay"; key: string };

interface HeldToken {
  value: string;
  /** Epoch ms after which the token must not be used any more. */
  expiresAtMs: number;
}

export interface TokenManagerOptions {
  tokenUrl: string;
  credentials: Credentials;
  fetch?: typeof fetch;
  now?: () => number;
  /** Renew this long before the service's expiry so no request leaves with a token about to lapse. */
  renewBeforeMs?: number;
}

/**
 * Manual tokens live 30 days. A JWT says when it expires (`exp`); for any other token the service does not tell
 * us when it was created, so we trust it until a 401.
 */
const MANUAL_TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;

/**
 * Holds the access token for one sign-in. However many callers ask at once, at most one token request is
 * in flight; a token is renewed a minute before it expires, and after a 401 the caller marks it bad once.
 */
export class TokenManager {
  private held: HeldToken | undefined;
  private renewal: Promise<HeldToken> | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly renewBeforeMs: number;
  /** How many token requests this manager has sent (for tests and diagnostics). */
  renewals = 0;

  constructor(private readonly options: TokenManagerOptions) {
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.now = options.now ?? Date.now;
    this.renewBeforeMs = options.renewBeforeMs ?? 60_000;
    if (options.credentials.kind === "manual") {
      const { accessToken } = options.credentials;
      this.held = {
        value: accessToken,
        expiresAtMs: jwtExpiryMs(accessToken) ?? this.now() + MANUAL_TOKEN_LIFETIME_MS,
      };
    } else if (options.credentials.kind === "relay") {
      this.held = { value: options.credentials.key, expiresAtMs: this.now() + MANUAL_TOKEN_LIFETIME_MS };
    }
  }

  get clientId(): string | undefined {
    return this.options.credentials.kind === "client" ? this.options.credentials.clientId : undefined;
  }

  /** A token that is valid now, renewing it first when needed. */
  async token(): Promise<string> {
    const held = this.held;
    if (held && this.now() < held.expiresAtMs - this.renewBeforeMs) return held.value;
    return (await this.renew()).value;
  }

  /**
   * Drops `token` after the service refused it, so the next `token()` fetches a new one. Calls for a token
   * that has already been replaced do nothing: a burst of 401s causes one renewal, not one each.
   */
  invalidate(token: string): void {
    if (this.held?.value === token) this.held = undefined;
  }

  private renew(): Promise<HeldToken> {
    this.renewal ??= this.requestToken().finally(() => {
      this.renewal = undefined;
    });
    return this.renewal;
  }

  private async requestToken(): Promise<HeldToken> {
    const credentials = this.options.credentials;
    if (credentials.kind === "relay") {
      throw new ApiError(
        "unauthorized",
        "The team relay no longer accepts your personal key (revoked or replaced). Ask your relay admin for a new key, then sign in again with Team relay.",
      );
    }
    if (credentials.kind === "manual") {
      throw new ApiError(
        "unauthorized",
        "The access token was refused or has expired. Sign in again with a new token.",
      );
    }
    this.renewals += 1;
    const body = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    });
    let response: Response;
    try {
      response = await this.fetchImpl(this.options.tokenUrl, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body,
      });
    } catch (error) {
      throw errorFromFetchFailure(error);
    }
    if (!response.ok) {
      const error = await errorFromResponse(response);
      if (response.status === 400 || response.status === 401) {
        throw new ApiError(
          "unauthorized",
          "The client id or secret was not accepted. Check both and sign in again.",
          error.details,
        );
      }
      throw error;
    }
    const payload = (await response.json().catch(() => undefined)) as
      { access_token?: unknown; expires_in?: unknown } | undefined;
    if (typeof payload?.access_token !== "string" || payload.access_token === "") {
      throw new ApiError("server", "The token endpoint answered without an access token.");
    }
    const expiresIn = typeof payload.expires_in === "number" ? payload.expires_in : 7200;
    this.held = { value: payload.access_token, expiresAtMs: this.now() + expiresIn * 1000 };
    return this.held;
  }
}
