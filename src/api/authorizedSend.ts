import type { TokenManager } from "./tokens";

/** What one send hands back: at least the HTTP response (a typed client adds its parsed body). */
export interface SentAnswer {
  response: Response;
}

/** Frees a refused answer's connection unless its body was already read (a typed client reads it). */
async function discard(response: Response): Promise<void> {
  if (response.bodyUsed || !response.body) return;
  await response.body.cancel().catch(() => undefined);
}

/**
 * Sends one request with the sign-in's bearer token. A 401 marks that token bad (a burst of 401s for the same
 * token causes one renewal, not one each), renews it and sends once more; the second answer is returned
 * whatever it is, a 401 included, so the caller says what a refused sign-in means to whoever reads it. Errors
 * of the token request or of `send` propagate as thrown.
 */
export async function sendAuthorized<A extends SentAnswer>(
  tokens: TokenManager,
  send: (authorization: string) => Promise<A>,
): Promise<A> {
  const token = await tokens.token();
  const first = await send(`Bearer ${token}`);
  if (first.response.status !== 401) return first;
  await discard(first.response);
  tokens.invalidate(token);
  return send(`Bearer ${await tokens.token()}`);
}
