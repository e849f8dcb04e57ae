/**
 * The expiry of a JWT access token, from its `exp` claim (epoch ms), or undefined when the token is not a JWT
 * or carries none. The live service's manually created tokens are JWTs with `exp` (api-notes, "Observed on the
 * live service"). Only read, never verified: the service decides whether a token is good; this just avoids
 * sending one that has certainly lapsed.
 */
export function jwtExpiryMs(token: string): number | undefined {
  const payload = token.split(".")[1];
  if (token.split(".").length !== 3 || !payload) return undefined;
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    const claims: unknown = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "=")));
    const exp = typeof claims === "object" && claims !== null ? (claims as { exp?: unknown }).exp : undefined;
    return typeof exp === "number" && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
