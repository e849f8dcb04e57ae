/**
 * A sandbox with the shared session signed in to it, plus a raw client for the sandbox's own answers: function
 * tests compare what a formula returns with what the service sent.
 *
 * `startSignedInSandbox` keeps the sandbox in the test's process, reached through fastify's `inject` (no port:
 * the file stays a unit test, see ./inProcessSandbox.ts); `startSignedInSandboxOverHttp` puts it on a free port
 * of 127.0.0.1, for the tests that are about the wire (sockets, streamed bodies, a client that goes away).
 */
import type { IncomingMessage } from "node:http";
import { DEMO_CLIENTS } from "../../sandbox/data/clients";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../sandbox/server";
import { session } from "../../src/session/session";
import { startInProcessSandbox } from "./inProcessSandbox";
import { rawService, type RawService } from "./rawService";

/** Pacing the tests' sandbox allows: the data layer's live-limit pacing would only slow the tests down. */
export const UNPACED = { pacing: { limit: 1_000_000, windowMs: 1000, burst: 1_000_000 } } as const;

export interface SignedInSandbox {
  sandbox: RunningSandbox;
  accountId: number;
  raw: RawService;
  /** Signs the shared session in as another demo client (and points `raw` at it too). */
  signInAs(clientId: string): Promise<void>;
  /** Calls `listener` with the path and query of each request the sandbox's API receives. */
  onRequest(listener: (pathAndQuery: string) => void): void;
  close(): Promise<void>;
}

/** In the test's process, without a socket; the file's `fetch` reaches it by its URL. */
export async function startSignedInSandbox(
  clientId = "demo-proplus",
  options: Partial<SandboxOptions> = {},
): Promise<SignedInSandbox> {
  const sandbox = await startInProcessSandbox(options);
  return signInTo(sandbox, clientId, sandbox.onRequest, () => sandbox.close());
}

/** On a free port of 127.0.0.1, over real HTTP. */
export async function startSignedInSandboxOverHttp(
  clientId = "demo-proplus",
  options: Partial<SandboxOptions> = {},
): Promise<SignedInSandbox> {
  const sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000, ...options });
  const onRequest = (listener: (pathAndQuery: string) => void) =>
    sandbox.app.server.on("request", (request: IncomingMessage) => listener(request.url ?? ""));
  return signInTo(sandbox, clientId, onRequest, () => sandbox.close());
}

async function signInTo(
  sandbox: RunningSandbox,
  clientId: string,
  onRequest: SignedInSandbox["onRequest"],
  closeSandbox: () => Promise<void>,
): Promise<SignedInSandbox> {
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
    onRequest,
    close: async () => {
      await session.signOut();
      await closeSandbox();
    },
  };
}
