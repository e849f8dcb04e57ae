import { createHash, timingSafeEqual } from "node:crypto";
import { inputOf, type OperationHandlers, type SandboxContext } from "../context";
import { findClient } from "../data/clients";
import { sendError } from "../http/errors";

function sameSecret(expected: string, given: string): boolean {
  // Hashing first gives equal-length buffers, so the comparison time says nothing about the secret.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(expected), digest(given));
}

/** POST /oauth/token: the client-credentials grant (form or JSON body). */
export function oauthTokenHandlers(context: SandboxContext): Pick<OperationHandlers, "createToken"> {
  return {
    createToken: (request, reply) => {
      const body = inputOf(request).body as { grant_type: string; client_id: string; client_secret: string };
      if (body.grant_type !== "client_credentials") {
        return sendError(reply, 400, "unsupported_grant_type", "grant_type must be client_credentials");
      }
      const client = findClient(body.client_id);
      if (!client || !sameSecret(client.clientSecret, body.client_secret)) {
        return sendError(
          reply,
          401,
          "invalid_client",
          "Client authentication failed: unknown client_id or wrong client_secret",
        );
      }
      const token = context.tokens.issueClientCredentialsToken(client.clientId);
      return reply.header("Cache-Control", "no-store").send({
        access_token: token.accessToken,
        token_type: "Bearer",
        expires_in: token.expiresAt - token.createdAt,
        scope: "api",
        created_at: token.createdAt,
      });
    },
  };
}
