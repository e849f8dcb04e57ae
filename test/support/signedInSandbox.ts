/**
 * A sandbox on a free port with the shared session signed in to it, plus a raw HTTP client for the
 * sandbox's own answers: function tests compare what a formula returns with what the service sent.
 */
import { DEMO_CLIENTS } from "../../sandbox/data/clients";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../sandbox/server";
import { session } from "../../src/session/session";
import { rawService, type RawService } from "./rawService";

/** Pacing the tests' sandbox allows: the data layer's live-limit pacing would only slow the tests down. */
export const UNPACED = { pacing: { limit: 1_000_000, windowMs: 1000, burst: 1_000_000 } } as const;

export interface SignedInSandbox {
  sandbox: RunningSandbox;
  accountId: number;
  raw: RawService;
  /** Signs the shared session in as another demo client (and points `raw` at it too). */
  signInAs(clientId: string): Promise<void>;
  close(): Promise<void>;
}

export async function startSignedInSandbox(
  clientId = "demo-proplus",
  options: Partial<SandboxOptions> = {},
): Promise<SignedInSandbox> {
  const sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000, ...options });
  session.useDataOptions(UNPACED);
  const state: Partial<SignedInSandbox> = { sandbox };
  const signInAs = async (id: string) => {
    const client = DEMO_CLIENTS.find((candidate) => candidate.clientId === id);
    if (!client) throw new Error(`No demo client ${id}`);
    const signedIn = await session.signIn(
      { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
      { kind: "client", clientId: client.clientId, clientSecret: client.clientSecret },
    );
    state.accountId = signedIn.accountId;
    state.raw = await rawService(sandbox.url, client.clientId, client.clientSecret);
  };
  await signInAs(clientId);
  return {
    sandbox,
    get accountId() {
      return state.accountId as number;
    },
    get raw() {
      return state.raw as RawService;
    },
    signInAs,
    close: async () => {
      await session.signOut();
      await sandbox.close();
    },
  };
}
