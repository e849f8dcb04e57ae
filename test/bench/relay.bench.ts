/**
 * Relay benchmark (issue 13): ten people open the reference workbook cold, staggered over 5 s, through one
 * relay (embedded SQLite store), then through two relays sharing one redis-server (people alternate between
 * them). The sandbox runs in its own process at the live limit (100 requests per 300 s per token) with 50 ms
 * of latency; each person is a process of their own running the real add-in (session, data layer, RENT
 * functions) with its own empty cache; the relays run in this process, which does nothing else, so its CPU
 * time and peak RSS are the relays'.
 *
 *   npx tsx test/bench/relay.bench.ts [--json]
 *
 * Upstream requests are counted by the relays: everything they sent the service (their token requests aside).
 * The people's sign-ins read the account list (shared by all ten, and by the relay's comp set check); the
 * workbooks' requests are the rest, compared with the floor of one workbook (test/bench/floor.ts), which leaves
 * out the sign-in as `npm run bench` does.
 *
 * Then the fairness figure (test/bench/relayFairness.ts): a person's single read beside a colleague's 150
 * forecast variants of the same property, its wait at the team gate on a moving clock with the live budget,
 * beside the same read's wait alone.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { datasetFor } from "../../sandbox/data/dataset";
import { DEFAULT_OPTIONS } from "../../sandbox/options";
import { relayServiceUrl } from "../../relay/options";
import { startRelay, type RunningRelay } from "../../relay/server";
import { addUser } from "../../relay/users/userAdmin";
import { LIVE_PACING } from "../../src/data/tokenBucket";
import { startRedis } from "../relay/support/redisServer";
import { requestFloor } from "./floor";
import { fairnessFigure } from "./relayFairness";
import { referenceWorkbook, WORKBOOK_CLIENT } from "./referenceWorkbook";

const PEOPLE = 10;
const STAGGER_MS = 5000;
const LATENCY_MS = 50;
const root = path.resolve(__dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");

interface PersonResult {
  sign_in_ms: number;
  cold_ms: number;
  cells: number;
  errors: number;
  first_error?: string;
}

interface ScenarioReport {
  relays: number;
  store: string;
  upstream_requests: number;
  /** The account list read by the people's sign-ins (listAccounts). */
  upstream_sign_in: number;
  /** Everything else: what the ten workbooks cost, to compare with the floor of one. */
  upstream_workbooks: number;
  upstream_by_endpoint: Record<string, number>;
  requests_floor: number;
  rate_limited_429: number;
  cache_hit_rate: number;
  cold_ms: { min: number; median: number; max: number; each: number[] };
  cell_errors: number;
  /** The first error message of each person who had any (the workbook's own #N/A cells show here). */
  error_messages: string[];
  sign_in_ms: number[];
  relay_cpu_ms: number;
  relay_peak_rss_mb: number;
  /** What the relays warned of (e.g. Redis commands that failed, after which an instance carries on alone). */
  relay_warnings: { count: number; first: string[] };
}

/** The relays' warnings, kept to be counted. */
class Warnings extends Writable {
  readonly messages: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
      try {
        this.messages.push(String((JSON.parse(line) as { msg?: unknown }).msg));
      } catch {
        this.messages.push(line);
      }
    }
    done();
  }
}

function lineFrom(child: ChildProcess, test: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => {
      if (test(line)) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`process exited (${code}) before answering`)));
  });
}

async function startSandboxProcess(): Promise<{ url: string; stop(): void }> {
  const child = spawn(tsx, ["sandbox/main.ts", "--port", "0", "--latency", String(LATENCY_MS)], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await lineFrom(child, (text) => text.startsWith("listening on "));
  return { url: line.slice("listening on ".length).trim(), stop: () => child.kill("SIGTERM") };
}

/** Samples this process's RSS while the scenario runs. */
function peakRss(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

async function runPeople(relays: RunningRelay[], cellsFile: string): Promise<PersonResult[]> {
  const keys = await Promise.all(
    Array.from({ length: PEOPLE }, (_, index) =>
      addUser((relays[0] as RunningRelay).store.users, `person-${index + 1}`, [100, 102], false),
    ),
  );
  const people = keys.map((key, index) =>
    spawn(
      tsx,
      [
        "test/bench/relayUser.ts",
        relayServiceUrl((relays[index % relays.length] as RunningRelay).url),
        key,
        cellsFile,
      ],
      {
        cwd: root,
        stdio: ["pipe", "pipe", "inherit"],
      },
    ),
  );
  await Promise.all(people.map((person) => lineFrom(person, (line) => line === "ready")));
  const results = people.map((person) => lineFrom(person, (line) => line.startsWith("{")));
  people.forEach((person, index) => {
    setTimeout(() => person.stdin?.write("go\n"), (index * STAGGER_MS) / (PEOPLE - 1));
  });
  return (await Promise.all(results)).map((line) => JSON.parse(line) as PersonResult);
}

async function scenario(
  sandboxUrl: string,
  stores: string[],
  cellsFile: string,
  floor: number,
): Promise<ScenarioReport> {
  const relays: RunningRelay[] = [];
  const warnings = new Warnings();
  for (const store of stores) {
    relays.push(
      await startRelay({
        host: "127.0.0.1",
        port: 0,
        upstream: { serviceUrl: sandboxUrl, tokenUrl: `${sandboxUrl}/oauth/token` },
        // The benchmark reads; it downloads no export file.
        downloadOrigins: [],
        credentials: { ...WORKBOOK_CLIENT },
        store,
        distDirectory: path.join(root, "dist"),
        pacing: LIVE_PACING,
        batchWindowMs: 25,
        log: warnings,
        logLevel: "warn",
      }),
    );
  }
  try {
    const cpuBefore = process.cpuUsage();
    const memory = peakRss();
    const people = await runPeople(relays, cellsFile);
    const peak = memory.stop();
    const cpu = process.cpuUsage(cpuBefore);
    // Counters live in the shared store: one snapshot covers every relay of the scenario.
    const status = await (relays[0] as RunningRelay).stats.snapshot("", {});
    const times = people.map((person) => person.cold_ms).sort((a, b) => a - b);
    const signIn = status.upstream.byEndpoint.listAccounts ?? 0;
    return {
      relays: relays.length,
      store: (relays[0] as RunningRelay).store.description.replace(/:.*/, ""),
      upstream_requests: status.upstream.total,
      upstream_sign_in: signIn,
      upstream_workbooks: status.upstream.total - signIn,
      upstream_by_endpoint: status.upstream.byEndpoint,
      requests_floor: floor,
      rate_limited_429: status.upstream.rateLimited,
      cache_hit_rate: Math.round(status.cache.hitRate * 1000) / 1000,
      cold_ms: {
        min: times[0] ?? 0,
        median: times[Math.floor(times.length / 2)] ?? 0,
        max: times.at(-1) ?? 0,
        each: people.map((person) => person.cold_ms),
      },
      cell_errors: people.reduce((sum, person) => sum + person.errors, 0),
      error_messages: [
        ...new Set(people.flatMap((person) => (person.first_error ? [person.first_error] : []))),
      ],
      sign_in_ms: people.map((person) => person.sign_in_ms),
      relay_cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
      relay_peak_rss_mb: Math.round(peak / 1024 / 1024),
      relay_warnings: { count: warnings.messages.length, first: [...new Set(warnings.messages)].slice(0, 3) },
    };
  } finally {
    for (const relay of relays) await relay.close();
  }
}

async function main(): Promise<void> {
  const json = process.argv.includes("--json");
  const workbook = referenceWorkbook(datasetFor(DEFAULT_OPTIONS.seed, DEFAULT_OPTIONS.propertyCount));
  const floor = requestFloor(workbook).total;
  const directory = mkdtempSync(path.join(tmpdir(), "relay-bench-"));
  const cellsFile = path.join(directory, "cells.json");
  writeFileSync(cellsFile, JSON.stringify(workbook.cells));
  const sandbox = await startSandboxProcess();
  const redis = await startRedis();
  try {
    const one = await scenario(sandbox.url, [path.join(directory, "one.sqlite")], cellsFile, floor);
    const two = await scenario(sandbox.url, [redis.url, redis.url], cellsFile, floor);
    // After the scenarios, so that their CPU time and RSS stay the relays' alone.
    const fairness = await fairnessFigure();
    const report = {
      people: PEOPLE,
      stagger_ms: STAGGER_MS,
      latency_ms: LATENCY_MS,
      cells_per_workbook: workbook.cells.length,
      one_relay: one,
      two_relays_redis: two,
      fairness,
    };
    if (json) console.log(JSON.stringify(report, null, 2));
    else {
      for (const [name, run] of [
        ["one relay (SQLite)", one],
        ["two relays (Redis)", two],
      ] as const) {
        console.log(
          `${name}: ${run.upstream_workbooks} upstream requests for the workbooks (floor of one workbook ${run.requests_floor}) + ${run.upstream_sign_in} for the sign-ins, ${run.rate_limited_429} x 429`,
        );
        console.log(
          `  cold per person ${run.cold_ms.min}-${run.cold_ms.max} ms (median ${run.cold_ms.median}), ${run.cell_errors} cell errors, cache hit rate ${run.cache_hit_rate}`,
        );
        console.log(`  relay CPU ${run.relay_cpu_ms} ms, peak RSS ${run.relay_peak_rss_mb} MB`);
        if (run.relay_warnings.count > 0)
          console.log(
            `  ${run.relay_warnings.count} relay warnings, e.g. ${run.relay_warnings.first.join(" / ")}`,
          );
      }
      console.log(
        `fairness (live budget, moving clock, one turn ${fairness.turn_ms} ms): a person's next read waits ${fairness.beside_variants_wait_ms} ms (HTTP ${fairness.beside_variants_status}) beside a colleague's ${fairness.variants} forecast variants of their property, ${fairness.alone_wait_ms} ms alone: ${fairness.extra_turns_beside_variants} turn(s) more (${(fairness.beside_variants_wait_ms / fairness.alone_wait_ms).toFixed(1)}x)`,
      );
    }
  } finally {
    sandbox.stop();
    await redis.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
