import type { FastifyRequest } from "fastify";
import type { CallerIdentity } from "../context";
import { findClient } from "../data/clients";
import type { TokenStore } from "./tokenStore";

/** The bearer string of the Authorization header, or undefined when absent or malformed. */
export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** The caller behind a request's bearer token, or undefined when missing, unknown, expired or revoked. */
export function identifyCaller(request: FastifyRequest, tokens: TokenStore): CallerIdentity | undefined {
  const bearer = bearerTokenOf(request);
  const token = bearer ? tokens.verify(bearer) : undefined;
  const client = token ? findClient(token.clientId) : undefined;
  return token && client ? { token, client } : undefined;
}
