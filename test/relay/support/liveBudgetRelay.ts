import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSandbox, type RunningSandbox } from "../../../sandbox/server";
import { startRelay, type RunningRelay } from "../../../relay/server";
import { addUser } from "../../../relay/users/userAdmin";
import { LIVE_PACING } from "../../../src/data/tokenBucket";
import { MovingClock } from "./movingClock";
import { CapturedLog, RELAY_CLIENT } from "./relayHarness";

export interface LiveBudgetRelay {
  relay: RunningRelay;
  clock: MovingClock;
  log: CapturedLog;
  url: string;
  addUser(name: string, accounts: number[]): Promise<string>;
  /** GET, or POST with a JSON body, through the relay's API with a personal key; `signal` cancels it. */
  api(key: string, pathAndQuery: string, body?: unknown, signal?: AbortSignal): Promise<Response>;
  /** Requests of `person` waiting at the team gate. */
  waiting(person: string): number;
  close(): Promise<void>;
}

export interface LiveBudgetRelayOptions {
  /** Where the relay sends API calls (the sandbox unless a test stands a misbehaving service in front). */
  serviceUrl?: string;
  clientSecret?: string;
  upstreamDeadlineMs?: number;
  maxQueuedPerPerson?: number;
  /** How long a batch waits for others to join it (10 ms unless a test needs people to meet in one). */
  batchWindowMs?: number;
}

/**
 * A relay in front of `sandbox` with the live budget (100 requests per 300 s, 50 at once) and a clock the test
 * moves: what the budget, pauses and deadlines do is seen by moving time, never by waiting for it.
 */
export async function startLiveBudgetRelay(
  sandbox: RunningSandbox,
  options: LiveBudgetRelayOptions = {},
): Promise<LiveBudgetRelay> {
  const directory = mkdtempSync(path.join(tmpdir(), "relay-budget-"));
  const clock = new MovingClock();
  const log = new CapturedLog();
  const relay = await startRelay({
    host: "127.0.0.1",
    port: 0,
    upstream: { serviceUrl: options.serviceUrl ?? sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
    downloadOrigins: [sandbox.downloadUrl],
    credentials: {
      clientId: RELAY_CLIENT.clientId,
      clientSecret: options.clientSecret ?? RELAY_CLIENT.clientSecret,
    },
    store: path.join(directory, "relay.sqlite"),
    distDirectory: path.join(directory, "no-dist"),
    pacing: LIVE_PACING,
    batchWindowMs: options.batchWindowMs ?? 10,
    log,
    logLevel: "warn",
    now: clock.now,
    clock,
    upstreamDeadlineMs: options.upstreamDeadlineMs,
    maxQueuedPerPerson: options.maxQueuedPerPerson,
  });
  return {
    relay,
    clock,
    log,
    url: relay.url,
    addUser: (name, accounts) => addUser(relay.store.users, name, accounts, false),
    api: (key, pathAndQuery, body, signal) =>
      fetch(`${relay.url}/api${pathAndQuery}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          Authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      }),
    waiting: (person) => relay.gate.waiting()[person] ?? 0,
    close: async () => {
      // The test's own client keeps its connections; the relay must not wait for them to close.
      relay.app.server.closeAllConnections();
      await relay.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * A sandbox that does not limit the relay (the relay's live budget is under test) and appends the path of
 * every API request that reaches it to `arrived`, in order.
 */
export function startRecordingSandbox(arrived: string[]): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    rateLimit: 1_000_000,
    logger: {
      stream: {
        write: (line: string) => {
          const entry = JSON.parse(line) as { msg?: string; req?: { url?: string } };
          if (entry.msg === "incoming request" && entry.req?.url?.startsWith("/v1/"))
            arrived.push(entry.req.url);
        },
      },
    },
  });
}
