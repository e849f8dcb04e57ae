import { createHmac, randomBytes } from "node:crypto";
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
  private readonly signingKey = randomBytes(32);

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
    const expiresAt = createdAt + lifetimeSeconds;
    const token: IssuedToken = {
      accessToken:
        kind === "manual"
          ? this.manualJwt(clientId, createdAt, expiresAt)
          : randomBytes(32).toString("base64url"),
      clientId,
      kind,
      createdAt,
      expiresAt,
      revoked: false,
    };
    this.tokens.set(token.accessToken, token);
    return token;
  }

  /**
   * Manually created live tokens are JWTs of about 240 characters carrying `exp` (api-notes, "Observed on the
   * live service"); this one has the same form, signed with a key of this sandbox. The random `jti` keeps
   * it unguessable; nothing in it derives from the client secret.
   */
  private manualJwt(clientId: string, issuedAt: number, expiresAt: number): string {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const header = part({ alg: "HS256", typ: "JWT" });
    const payload = part({
      iss: "rent-market-sandbox",
      sub: clientId,
      iat: issuedAt,
      exp: expiresAt,
      jti: randomBytes(12).toString("hex"),
    });
    const signature = createHmac("sha256", this.signingKey)
      .update(`${header}.${payload}`)
      .digest("base64url");
    return `${header}.${payload}.${signature}`;
  }
}
