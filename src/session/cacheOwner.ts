import type { Credentials } from "../api/tokens";

/** Hex SHA-256 of a text, shortened: enough to tell people apart, never enough to give the text back. */
async function digest(text: string): Promise<string> {
  const bytes = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(bytes)]
    .slice(0, 16)
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
}

/**
 * Whose answers a sign-in's cache holds: the first part of every cache key and of the remembered account.
 * A client id names its person (and tier) and is no secret. A personal relay key and a pasted access token are
 * secrets and the only thing that tells one person from another, so the owner is their hash: two people who
 * sign in on one computer never share a key, and the secret never reaches IndexedDB or localStorage.
 */
export async function cacheOwnerOf(credentials: Credentials): Promise<string> {
  switch (credentials.kind) {
    case "client":
      return credentials.clientId;
    case "manual":
      return `access token ${await digest(credentials.accessToken)}`;
    case "relay":
      return `relay key ${await digest(credentials.key)}`;
  }
}
