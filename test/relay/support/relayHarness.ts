import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { DEMO_CLIENTS } from "../../../sandbox/data/clients";
import { startSandbox, type RunningSandbox } from "../../../sandbox/server";
import { startRelay, type RelayOptions, type RunningRelay } from "../../../relay/server";
import { REAL_CLOCK } from "../../../relay/upstream/relayClock";
import { addUser } from "../../../relay/users/userAdmin";

/** The upstream client of the test relays, and so the secret that must never leave them. */
export const RELAY_CLIENT = DEMO_CLIENTS.find(
  (client) => client.clientId === "demo-proplus",
) as (typeof DEMO_CLIENTS)[number];

/** Every line a relay logged, kept to be searched. */
export class CapturedLog extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  }

  get text(): string {
    return this.lines.join("\n");
  }
}

export interface TestRelay {
  relay: RunningRelay;
  log: CapturedLog;
  url: string;
  /** A personal key for `name`, as `users add` makes it. */
  addUser(name: string, accounts: number[], admin?: boolean): Promise<string>;
  /** GET or POST through the relay's API with a personal key. */
  api(key: string, pathAndQuery: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** A relay on a free port in front of `sandbox`, with a store of its own unless one is given. */
export async function startTestRelay(
  sandbox: RunningSandbox,
  options: {
    store?: string;
    batchWindowMs?: number;
    clientSecret?: string;
    distDirectory?: string;
    /** The clock of cached answers' and download links' lifetimes. */
    clock?: () => number;
    /** When the service posts each day's data (the relay's --posting-time). */
    postingTime?: string;
    /** Request timeouts of the relay's listener. */
    timeouts?: RelayOptions["timeouts"];
    /** The service as the relay reaches it (a proxy in front of the sandbox); the sandbox's own URL by default. */
    serviceUrl?: string;
    /** The download hosts the relay fetches files from; the sandbox's download origin by default. */
    downloadOrigins?: string[];
  } = {},
): Promise<TestRelay> {
  const directory = options.store ? undefined : mkdtempSync(path.join(tmpdir(), "relay-test-"));
  const log = new CapturedLog();
  const startedAt = Date.now();
  const relay = await startRelay({
    host: "127.0.0.1",
    port: 0,
    upstream: {
      serviceUrl: options.serviceUrl ?? sandbox.url,
      tokenUrl: `${options.serviceUrl ?? sandbox.url}/oauth/token`,
    },
    downloadOrigins: options.downloadOrigins ?? [sandbox.downloadUrl],
    credentials: {
      clientId: RELAY_CLIENT.clientId,
      clientSecret: options.clientSecret ?? RELAY_CLIENT.clientSecret,
    },
    store: options.store ?? path.join(directory as string, "relay.sqlite"),
    distDirectory: options.distDirectory ?? path.join(directory ?? tmpdir(), "no-dist"),
    pacing: { limit: 1_000_000, windowMs: 300_000, burst: 1_000_000 },
    batchWindowMs: options.batchWindowMs ?? 10,
    postingTime: options.postingTime,
    log,
    logLevel: "info",
    // A still clock keeps a slow test run in one status window.
    now: () => startedAt,
    clock: options.clock ? { now: options.clock, sleep: REAL_CLOCK.sleep } : undefined,
    timeouts: options.timeouts,
  });
  return {
    relay,
    log,
    url: relay.url,
    addUser: (name, accounts, admin = false) => addUser(relay.store.users, name, accounts, admin),
    api: (key, pathAndQuery, body) =>
      fetch(`${relay.url}/api${pathAndQuery}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          Authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    close: async () => {
      await relay.close();
      if (directory) rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A sandbox that never rate-limits the tests (the relay's own gate is under test, not the sandbox's). */
export function startTestSandbox(): Promise<RunningSandbox> {
  return startSandbox({ port: 0, rateLimit: 1_000_000 });
}

/** An export of the sandbox's first property submitted through the relay with `key`, once it has succeeded. */
export async function succeededJob(relay: TestRelay, sandbox: RunningSandbox, key: string): Promise<string> {
  const submitted = await relay.api(key, "/v1/bulk_api/jobs", {
    report_type: "property",
    output_format: "csv",
    start_date: "2026-10-01",
    end_date: "2026-10-01",
    property_ids: [(sandbox.dataset().properties[0] as { id: number }).id],
  });
  if (submitted.status >= 300) throw new Error(`the export was refused: HTTP ${submitted.status}`);
  const { job_id: jobId } = (await submitted.json()) as { job_id: string };
  for (let poll = 0; poll < 600; poll++) {
    const job = (await (await relay.api(key, `/v1/bulk_api/jobs/${jobId}`)).json()) as { status: string };
    if (job.status === "succeeded") return jobId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the job did not finish");
}
