import { randomBytes } from "node:crypto";
import type { SandboxClock } from "../clock";

export type TokenKind = "client_credentials" | "manual";

export interface IssuedToken {
  accessToken: string;
  clientId: string;
  kind: TokenKind;
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds; the token is rejected from this instant on. */
  expiresAt: number;
  revoked: boolean;
}

export const MANUAL_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;

/**
 * Opaque bearer tokens kept in memory. Tokens are random, not derived from the client secret, so a
 * leaked token says nothing about the credentials behind it.
 */
export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly clientCredentialsLifetimeSeconds: number,
  ) {}

  issueClientCredentialsToken(clientId: string): IssuedToken {
    return this.issue(clientId, "client_credentials", this.clientCredentialsLifetimeSeconds);
  }

  /** The stand-in for a token created by hand in the vendor's web application (valid 30 days). */
  issueManualToken(clientId: string): IssuedToken {
    return this.issue(clientId, "manual", MANUAL_TOKEN_LIFETIME_SECONDS);
  }

  /** The live token for this bearer string, or undefined when unknown, expired or revoked. */
  verify(accessToken: string): IssuedToken | undefined {
    const token = this.tokens.get(accessToken);
    if (!token || token.revoked || this.clock.nowSeconds() >= token.expiresAt) return undefined;
    return token;
  }

  /** Revokes one token, or every token of a client; returns how many were revoked. */
  revoke(target: { accessToken?: string; clientId?: string }): number {
    let count = 0;
    for (const token of this.tokens.values()) {
      const matches =
        (target.accessToken !== undefined && token.accessToken === target.accessToken) ||
        (target.clientId !== undefined && token.clientId === target.clientId);
      if (matches && !token.revoked) {
        token.revoked = true;
        count += 1;
      }
    }
    return count;
  }

  private issue(clientId: string, kind: TokenKind, lifetimeSeconds: number): IssuedToken {
    const createdAt = this.clock.nowSeconds();
    const token: IssuedToken = {
      accessToken: randomBytes(32).toString("base64url"),
      clientId,
      kind,
      createdAt,
      expiresAt: createdAt + lifetimeSeconds,
      revoked: false,
    };
    this.tokens.set(token.accessToken, token);
    return token;
  }
}
