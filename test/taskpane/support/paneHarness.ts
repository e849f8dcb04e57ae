/**
 * What the pane's controller tests share: a sandbox on a free port, a session of their own (unpaced, with its
 * own cache database), settings in memory and a vault in a private fake IndexedDB store.
 */
import "fake-indexeddb/auto";
import { createStore, type UseStore } from "idb-keyval";
import { DEMO_CLIENTS } from "../../../sandbox/data/clients";
import { type RunningSandbox, type SandboxOptions } from "../../../sandbox/server";
import { startInProcessSandbox } from "../../support/inProcessSandbox";
import { Session } from "../../../src/session/session";
import { SecretVault } from "../../../src/taskpane/secretVault";
import { MemoryStorage, SettingsStore } from "../../../src/taskpane/settingsStore";
import type { SignInForm } from "../../../src/taskpane/signInController";

const UNPACED = { limit: 1_000_000, windowMs: 1000, burst: 1_000_000 };
const QUICK_RETRY = { baseDelayMs: 2, maxDelayMs: 10, maxAttempts: 2 };

let counter = 0;

export function newSession(fetchImpl?: typeof fetch): Session {
  counter += 1;
  return new Session(fetchImpl, {
    databaseName: `pane-test-${counter}`,
    pacing: UNPACED,
    retry: QUICK_RETRY,
  });
}

/** A vault over a private store; `store` lets a test look at what the vault wrote. */
export function newVault(): { vault: SecretVault; store: UseStore } {
  counter += 1;
  const store = createStore(`pane-vault-${counter}`, "secrets");
  return { vault: new SecretVault(store), store };
}

export function newSettings(): { storage: MemoryStorage; settings: SettingsStore } {
  const storage = new MemoryStorage();
  return { storage, settings: new SettingsStore(storage) };
}

export function secretOf(clientId: string): string {
  const client = DEMO_CLIENTS.find((candidate) => candidate.clientId === clientId);
  if (!client) throw new Error(`No demo client ${clientId}`);
  return client.clientSecret;
}

export function clientForm(sandbox: RunningSandbox, clientId: string, overrides: Partial<SignInForm> = {}) {
  return {
    serviceUrl: sandbox.url,
    tokenUrl: `${sandbox.url}/oauth/token`,
    method: "client",
    clientId,
    clientSecret: secretOf(clientId),
    accessToken: "",
    remember: false,
    ...overrides,
  } satisfies SignInForm;
}

export function startPaneSandbox(options: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  return startInProcessSandbox({ propertyCount: 2000, rateLimit: 1_000_000, jobStartDelayMs: 0, ...options });
}
