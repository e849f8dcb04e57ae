/**
 * Workbook benchmark (issue 8): the reference underwriting workbook evaluated through the real functions
 * layer against the sandbox with 50 ms of injected latency.
 *
 *   npx tsx test/bench/workbook.bench.ts [--json] [--cells 24000] [--history]
 *
 * Runs, in one sandbox: the naive one-call-per-cell client (first, so that the sandbox's lazily compiled
 * validators and dataset are warm before ours is timed); ours cold (a new sign-in over an empty IndexedDB);
 * ours warm (another new sign-in, so a new data layer, over the same IndexedDB); and ours cold again with the
 * sandbox's rate limit set to the live service's 100 requests per 300 s, once as a fixed window and once as a
 * rolling window that halves the limit after a burst (`--rate-mode rolling`). Ours runs with the product's
 * default data layer settings, including its pacing for the live limit.
 *
 * Request counts are data API requests counted at the sandbox while the workbook evaluates: the sign-in
 * before it (one token request, one accounts request) is excluded and shown on its own line.
 *
 * Then "Refresh with fresh data" of the same workbook under the live budget on a moving clock (refreshBench.ts):
 * what a refresh after the day's posting serves and sends, how long it takes at the live pace, and what a second
 * refresh the same morning sends.
 *
 * Then the history workbook (historyWorkbook.ts): RENT.HISTORY over ten properties and 13 months, cold and
 * warm, against export jobs that take the live service's time; `--history` runs it alone.
 *
 * `--cells N` scales the reference workbook to about N cells (the same mix, more of each) and measures
 * ours cold and warm only: requests against the floor, time per cell, and this process's peak memory. At
 * that size the floor is hundreds of requests, which the live limit would spread over half an hour, so
 * ours is paced to the sandbox's own (unlimited) limit there and the naive and limited runs are left out.
 */
import "../support/customFunctionsGlobal";
import "fake-indexeddb/auto";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import type { PacingOptions } from "../../src/data/tokenBucket";
import { session } from "../../src/session/session";
import { ENDPOINTS, requestFloor, type RequestFloor } from "./floor";
import { runNaiveClient } from "./naiveClient";
import { measureHistoryWorkbook, printHistoryReport } from "./historyWorkbook";
import { referenceWorkbook, WORKBOOK_CLIENT, type Workbook } from "./referenceWorkbook";
import {
  dataRequests,
  difference,
  TOKEN_PATH,
  total,
  watchTraffic,
  type Counts,
  type SandboxTraffic,
} from "./sandboxTraffic";
import { measureRefresh, type RefreshFigures } from "./refreshBench";
import { isError, timedEvaluation, type CellOutcome } from "./workbookRunner";

const LATENCY_MS = 50;
const LIVE_LIMIT = { requests: 100, windowSeconds: 300 };
/** Connections of the naive client: more than a browser's six only to finish sooner (counts do not change). */
const NAIVE_CONNECTIONS = 32;

interface Figures {
  requests_cold: number;
  requests_floor: number;
  requests_naive: number;
  cold_ms: number;
  warm_ms: number;
  requests_warm: number;
  limited_ms: number;
  limited_rolling_ms: number;
  naive_limited_ms: number;
}

interface OurRun {
  ms: number;
  signInRequests: number;
  requests: number;
  byEndpoint: Counts;
  statuses: Counts;
  outcomes: CellOutcome[];
}

async function runOurs(
  sandbox: RunningSandbox,
  traffic: SandboxTraffic,
  workbook: Workbook,
  databaseName: string,
  pacing?: PacingOptions,
): Promise<OurRun> {
  session.useDataOptions(pacing ? { databaseName, pacing } : { databaseName });
  const beforeSignIn = traffic.snapshot();
  await session.signIn(
    { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}${TOKEN_PATH}` },
    { kind: "client", ...WORKBOOK_CLIENT },
  );
  const before = traffic.snapshot();
  const { outcomes, ms } = await timedEvaluation(workbook.cells);
  const after = traffic.snapshot();
  const byEndpoint = difference(before.requests, after.requests);
  return {
    ms,
    signInRequests: total(difference(beforeSignIn.requests, before.requests)),
    requests: dataRequests(byEndpoint),
    byEndpoint,
    statuses: difference(beforeSignIn.statuses, after.statuses),
    outcomes,
  };
}

/**
 * Lower bound for a client sending `requests` under a fixed window of `limit` per `windowSeconds`: it must
 * sit out every full window but the last. Its own transfer time is left out.
 */
function estimatedLimitedMs(requests: number): number {
  return Math.max(0, Math.ceil(requests / LIVE_LIMIT.requests) - 1) * LIVE_LIMIT.windowSeconds * 1000;
}

interface Report {
  figures: Figures & RefreshFigures;
  floor: RequestFloor;
  cold: OurRun;
  warm: OurRun;
  limited: OurRun;
  limitedRolling: OurRun;
  naive: { byEndpoint: Counts; failed: number };
  cells: number;
}

async function measure(): Promise<Report> {
  const sandbox = await startSandbox({
    port: 0,
    rateLimit: 1_000_000,
    faults: { latencyMs: LATENCY_MS, errorRate: 0, rateLimitBurst: 0, dropRate: 0 },
  });
  const traffic = watchTraffic(sandbox);
  try {
    const workbook = referenceWorkbook(sandbox.context.dataset());
    const floor = requestFloor(workbook);

    const beforeNaive = traffic.snapshot();
    const naiveRun = await runNaiveClient(sandbox.url, WORKBOOK_CLIENT, workbook, NAIVE_CONNECTIONS);
    const naiveByEndpoint = difference(beforeNaive.requests, traffic.snapshot().requests);
    const requestsNaive = dataRequests(naiveByEndpoint);

    const database = `rent-market-bench-${process.pid}`;
    const cold = await runOurs(sandbox, traffic, workbook, database);
    const warm = await runOurs(sandbox, traffic, workbook, database);
    sandbox.context.rateLimiter.configure(LIVE_LIMIT.requests, LIVE_LIMIT.windowSeconds);
    const limited = await runOurs(sandbox, traffic, workbook, `${database}-limited`);
    sandbox.context.rateLimiter.configure(LIVE_LIMIT.requests, LIVE_LIMIT.windowSeconds, "rolling");
    const limitedRolling = await runOurs(sandbox, traffic, workbook, `${database}-limited-rolling`);
    session.signOut();
    const refreshed = await measureRefresh((own) => referenceWorkbook(own.context.dataset()));

    return {
      figures: {
        ...refreshed.figures,
        requests_cold: cold.requests,
        requests_floor: floor.total,
        requests_naive: requestsNaive,
        cold_ms: Math.round(cold.ms),
        warm_ms: Math.round(warm.ms),
        requests_warm: warm.requests,
        limited_ms: Math.round(limited.ms),
        limited_rolling_ms: Math.round(limitedRolling.ms),
        naive_limited_ms: estimatedLimitedMs(requestsNaive),
      },
      floor,
      cold,
      warm,
      limited,
      limitedRolling,
      naive: { byEndpoint: naiveByEndpoint, failed: naiveRun.failed },
      cells: workbook.cells.length,
    };
  } finally {
    await sandbox.close();
  }
}

const sameOutcomes = (a: CellOutcome[], b: CellOutcome[]) => JSON.stringify(a) === JSON.stringify(b);

function printReport(report: Report): void {
  const { figures: f, floor, cold, warm, limited, limitedRolling, naive } = report;
  console.log(
    `Workbook benchmark: ${report.cells} RENT cells, sandbox latency ${LATENCY_MS} ms, client ${WORKBOOK_CLIENT.clientId}\n`,
  );
  const rows: Record<string, Record<string, number>> = {};
  const floorOf: Counts = floor.byEndpoint;
  for (const path of [...Object.values(ENDPOINTS), TOKEN_PATH]) {
    rows[path] = {
      floor: floorOf[path] ?? 0,
      cold: cold.byEndpoint[path] ?? 0,
      warm: warm.byEndpoint[path] ?? 0,
      limited: limited.byEndpoint[path] ?? 0,
      "limited (rolling)": limitedRolling.byEndpoint[path] ?? 0,
      naive: naive.byEndpoint[path] ?? 0,
    };
  }
  console.log("Requests per endpoint while the workbook evaluates (counted at the sandbox):");
  console.table(rows);
  const errors = cold.outcomes.filter(isError);
  const limitedStatus429 = limited.statuses["429"] ?? 0;
  const rollingStatus429 = limitedRolling.statuses["429"] ?? 0;
  console.table({
    "requests_cold (data API; sign-in excluded)": {
      value: f.requests_cold,
      goal: `== floor (${f.requests_floor})`,
    },
    requests_floor: { value: f.requests_floor, goal: "" },
    "requests_naive (measured, same run)": { value: f.requests_naive, goal: "" },
    cold_ms: { value: f.cold_ms, goal: "< 1000" },
    "warm_ms (new sign-in, same IndexedDB)": { value: f.warm_ms, goal: "< 300" },
    requests_warm: { value: f.requests_warm, goal: "0" },
    "limited_ms (sandbox limit 100 / 300 s)": { value: f.limited_ms, goal: "" },
    "429s under the limit (sign-in included)": { value: limitedStatus429, goal: "0" },
    "limited_rolling_ms (rolling 100 / 300 s, halved after a burst)": {
      value: f.limited_rolling_ms,
      goal: "",
    },
    "429s under the rolling limit (sign-in included)": { value: rollingStatus429, goal: "0" },
    "naive_limited_ms (ESTIMATED from its count)": { value: f.naive_limited_ms, goal: "" },
    "sign-in requests (token + accounts), each run": { value: cold.signInRequests, goal: "" },
    "cells ending in an error (cold)": { value: errors.length, goal: "" },
    "naive requests not answered 200": { value: naive.failed, goal: "0" },
    "refresh_served_stale (after the posting, live budget)": { value: f.refresh_served_stale, goal: "0" },
    refresh_requests_after_posting: {
      value: f.refresh_requests_after_posting,
      goal: `<= floor (${f.requests_floor})`,
    },
    "refresh_requests_same_day (before the next posting)": { value: f.refresh_requests_same_day, goal: "0" },
    "refresh_live_ms (moving clock, live pace)": { value: f.refresh_live_ms, goal: "" },
  });
  const messages = new Map<string, number>();
  for (const error of errors) {
    const kind = `${error.error} ${error.message.replace(/\d+/g, "<n>")}`;
    messages.set(kind, (messages.get(kind) ?? 0) + 1);
  }
  for (const [message, count] of messages) console.log(`  ${count} x ${message}`);
  console.log(
    `\nSame values cold, warm and limited (fixed and rolling): ${sameOutcomes(cold.outcomes, warm.outcomes) && sameOutcomes(cold.outcomes, limited.outcomes) && sameOutcomes(cold.outcomes, limitedRolling.outcomes) ? "yes" : "NO"}`,
  );
  const goals = [
    [
      `requests_cold == requests_floor (${f.requests_cold} vs ${f.requests_floor})`,
      f.requests_cold === f.requests_floor,
    ],
    [`requests_warm == 0 (${f.requests_warm})`, f.requests_warm === 0],
    [`cold_ms < 1000 (${f.cold_ms})`, f.cold_ms < 1000],
    [`warm_ms < 300 (${f.warm_ms})`, f.warm_ms < 300],
    [`no 429 under the live limit (${limitedStatus429})`, limitedStatus429 === 0],
    [`no 429 under the rolling live limit (${rollingStatus429})`, rollingStatus429 === 0],
    [`refresh_served_stale == 0 (${f.refresh_served_stale})`, f.refresh_served_stale === 0],
    [`refresh_requests_same_day == 0 (${f.refresh_requests_same_day})`, f.refresh_requests_same_day === 0],
    [
      `refresh_requests_after_posting <= requests_floor (${f.refresh_requests_after_posting} vs ${f.requests_floor})`,
      f.refresh_requests_after_posting <= f.requests_floor,
    ],
  ] as const;
  for (const [goal, met] of goals) console.log(`${met ? "met    " : "MISSED "} ${goal}`);
  for (const [path, row] of Object.entries(rows)) {
    if (path !== TOKEN_PATH && (row.cold ?? 0) > (row.floor ?? 0))
      console.log(`  above the floor, cold: ${path} ${row.cold} vs ${row.floor}`);
    if ((row.warm ?? 0) > 0) console.log(`  sent warm: ${path} ${row.warm}`);
  }
  console.log(
    `\nnaive_limited_ms is an estimate, not a run: ${f.requests_naive} requests at ${LIVE_LIMIT.requests} per ${LIVE_LIMIT.windowSeconds} s must sit out ${Math.max(0, Math.ceil(f.requests_naive / LIVE_LIMIT.requests) - 1)} full windows.`,
  );
}

interface ScaledFigures {
  cells: number;
  requests_cold: number;
  requests_floor: number;
  requests_warm: number;
  cold_ms: number;
  warm_ms: number;
  cold_us_per_cell: number;
  warm_us_per_cell: number;
  cells_in_error_cold: number;
  /** Cold errors by kind (numbers masked), most frequent first. */
  cold_errors: Record<string, number>;
  same_values_cold_and_warm: boolean;
  peak_rss_mb: number;
  peak_heap_mb: number;
}

/** Peak heap of this process, sampled while `work` runs (the RSS peak comes from the kernel). */
async function withPeakHeap<T>(work: () => Promise<T>): Promise<{ result: T; peakHeapMb: number }> {
  let peak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
  try {
    const result = await work();
    return { result, peakHeapMb: Math.round(Math.max(peak, process.memoryUsage().heapUsed) / 2 ** 20) };
  } finally {
    clearInterval(sampler);
  }
}

function errorKinds(outcomes: CellOutcome[]): Record<string, number> {
  const kinds = new Map<string, number>();
  for (const error of outcomes.filter(isError)) {
    const kind = `${error.error} ${error.message.replace(/\d+/g, "<n>")}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return Object.fromEntries([...kinds].sort((a, b) => b[1] - a[1]));
}

async function measureScaled(cellTarget: number): Promise<ScaledFigures> {
  const sandbox = await startSandbox({
    port: 0,
    rateLimit: 1_000_000,
    faults: { latencyMs: LATENCY_MS, errorRate: 0, rateLimitBurst: 0, dropRate: 0 },
  });
  const traffic = watchTraffic(sandbox);
  try {
    const dataset = sandbox.context.dataset();
    const workbook = referenceWorkbook(dataset, cellTarget / referenceWorkbook(dataset).cells.length);
    const floor = requestFloor(workbook);
    const pacing = { limit: 1_000_000, windowMs: 300_000, burst: 1_000_000 };
    const database = `rent-market-bench-${process.pid}-${workbook.cells.length}`;
    const { result, peakHeapMb } = await withPeakHeap(async () => {
      const cold = await runOurs(sandbox, traffic, workbook, database, pacing);
      const warm = await runOurs(sandbox, traffic, workbook, database, pacing);
      return { cold, warm };
    });
    session.signOut();
    const { cold, warm } = result;
    const cells = workbook.cells.length;
    return {
      cells,
      requests_cold: cold.requests,
      requests_floor: floor.total,
      requests_warm: warm.requests,
      cold_ms: Math.round(cold.ms),
      warm_ms: Math.round(warm.ms),
      cold_us_per_cell: Math.round((cold.ms * 1000) / cells),
      warm_us_per_cell: Math.round((warm.ms * 1000 * 10) / cells) / 10,
      cells_in_error_cold: cold.outcomes.filter(isError).length,
      cold_errors: errorKinds(cold.outcomes),
      same_values_cold_and_warm: sameOutcomes(cold.outcomes, warm.outcomes),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      peak_heap_mb: peakHeapMb,
    };
  } finally {
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  const cellsIndex = process.argv.indexOf("--cells");
  if (cellsIndex !== -1) {
    const figures = await measureScaled(Number(process.argv[cellsIndex + 1]));
    if (process.argv.includes("--json")) console.log(JSON.stringify(figures, null, 2));
    else console.table(figures);
    return;
  }
  // The history workbook runs after the reference workbook, or alone with --history.
  const historyOnly = process.argv.includes("--history");
  const report = historyOnly ? undefined : await measure();
  const history = await measureHistoryWorkbook(LATENCY_MS);
  if (process.argv.includes("--json"))
    console.log(JSON.stringify({ ...report?.figures, ...history.figures }, null, 2));
  else {
    if (report) printReport(report);
    printHistoryReport(history);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
