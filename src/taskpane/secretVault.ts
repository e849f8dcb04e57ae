import { createStore, del, get, set, type UseStore } from "idb-keyval";
import type { Credentials } from "../api/tokens";
import { PaneInputError } from "./paneInputError";

/** Where a sign-in's secret may be kept between sessions of the runtime. */
export interface CredentialVault {
  keep(credentials: Credentials): Promise<void>;
  recall(): Promise<Credentials | undefined>;
  forget(): Promise<void>;
}

interface SealedCredentials {
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
}

const KEY_ENTRY = "key";
const CREDENTIALS_ENTRY = "credentials";

function isCredentials(value: unknown): value is Credentials {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  if (candidate.kind === "client")
    return typeof candidate.clientId === "string" && typeof candidate.clientSecret === "string";
  if (candidate.kind === "relay") return typeof candidate.key === "string";
  return candidate.kind === "manual" && typeof candidate.accessToken === "string";
}

/**
 * Keeps the sign-in's secret (client secret or manual token) so the runtime can sign in again after a reload,
 * only when the person asks for it. The secret is encrypted with AES-GCM under a key that WebCrypto created
 * non-extractable: the key object lives in this origin's IndexedDB, but its bytes can never be read out, so
 * the stored ciphertext is useless anywhere else. Nothing of this ever goes into the document.
 */
export class SecretVault implements CredentialVault {
  constructor(
    private readonly store: UseStore = createStore("rent-market-vault", "secrets"),
    private readonly subtle: SubtleCrypto = globalThis.crypto.subtle,
  ) {}

  async keep(credentials: Credentials): Promise<void> {
    const key = await this.key();
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
    const plaintext = new TextEncoder().encode(JSON.stringify(credentials));
    const ciphertext = await this.subtle.encrypt({ name: "AES-GCM", iv }, key, plaintext);
    const sealed: SealedCredentials = { iv, ciphertext };
    await set(CREDENTIALS_ENTRY, sealed, this.store);
    // WebKit's IndexedDB (Excel on Mac) may store a non-extractable key that cannot decrypt once read back:
    // the next start would then find nothing, silently. Read it back now and say so while the person is here.
    if ((await this.recall()) === undefined) {
      throw new PaneInputError(
        "Signed in, but this Excel cannot remember the secret: its web view does not keep the encryption key. Sign in without Remember; you will sign in again after Excel restarts.",
      );
    }
  }

  /** The kept credentials, or undefined when none are kept or they cannot be opened any more. */
  async recall(): Promise<Credentials | undefined> {
    const sealed = await get<SealedCredentials>(CREDENTIALS_ENTRY, this.store);
    const key = await get<CryptoKey>(KEY_ENTRY, this.store);
    if (!sealed || !key) return undefined;
    try {
      const plaintext = await this.subtle.decrypt({ name: "AES-GCM", iv: sealed.iv }, key, sealed.ciphertext);
      const parsed: unknown = JSON.parse(new TextDecoder().decode(plaintext));
      return isCredentials(parsed) ? parsed : undefined;
    } catch {
      // A ciphertext from another key (the key was reset) is garbage now: drop it rather than fail each start.
      await this.forget();
      return undefined;
    }
  }

  /** Deletes the kept secret and the key that sealed it (sign-out). */
  async forget(): Promise<void> {
    await del(CREDENTIALS_ENTRY, this.store);
    await del(KEY_ENTRY, this.store);
  }

  private async key(): Promise<CryptoKey> {
    const existing = await get<CryptoKey>(KEY_ENTRY, this.store);
    if (existing) return existing;
    const created = await this.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
      "encrypt",
      "decrypt",
    ]);
    await set(KEY_ENTRY, created, this.store);
    return created;
  }
}

/** Where the runtime has no IndexedDB or WebCrypto (some locked-down hosts): nothing can be kept, and it says so. */
class UnavailableVault implements CredentialVault {
  async keep(): Promise<void> {
    throw new PaneInputError(
      "Signed in, but this computer's add-in storage is unavailable, so the secret cannot be remembered. Sign in without Remember.",
    );
  }
  async recall(): Promise<undefined> {
    return undefined;
  }
  async forget(): Promise<void> {}
}

/** The runtime's vault: the encrypted one where IndexedDB and WebCrypto exist. */
export function openCredentialVault(): CredentialVault {
  if (typeof indexedDB === "undefined" || !globalThis.crypto?.subtle) return new UnavailableVault();
  return new SecretVault();
}
