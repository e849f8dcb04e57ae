/**
 * Bulk job benchmark (issue 11): six concurrent units exports (1,000 property ids x 366 days, csv) against a
 * sandbox in its own process, while another client asks `GET /v1/accounts` every 50 ms. Prints the sandbox's
 * peak RSS, the p50/p95 latency of /v1/accounts while the jobs run, and each job's outcome and duration.
 *
 *   npm run bench:jobs -- [--json] [--jobs 6] [--properties-per-job 1000] [--days 366] [--format csv]
 *                         [--max-rows <sandbox --job-max-rows>] [--concurrency <sandbox --job-concurrency>]
 *                         [--timeout 900]
 *
 * Without --max-rows the sandbox keeps its default row limit. Loopback only; jobs still running after
 * --timeout seconds are cancelled and reported as such.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { startSandboxProcess, type SandboxProcess } from "../support/sandboxProcess";
import { argument, percentile } from "./benchArgs";

const NOW = "2026-03-15T12:00:00Z";
const TODAY = "2026-03-15";
const FIRST_PROPERTY_ID = 100001;
const PROBE_INTERVAL_MS = 50;
const POLL_INTERVAL_MS = 500;

interface JobOutcome {
  job: number;
  status: string;
  error_message: string | null;
  duration_s: number;
}

interface Figures {
  jobs: number;
  properties_per_job: number;
  days: number;
  format: string;
  sandbox_args: string[];
  sandbox_peak_rss_mb: number;
  accounts_requests: number;
  accounts_p50_ms: number;
  accounts_p95_ms: number;
  accounts_max_ms: number;
  accounts_failures: number;
  wall_s: number;
  outcomes: JobOutcome[];
}

/** Peak resident set of a process so far (Linux: the kernel's high-water mark), in MB. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]);
  return Math.round(kilobytes / 1024);
}

function isoDaysBefore(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

async function token(url: string): Promise<string> {
  const response = await fetch(`${url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: "demo-pro",
      client_secret: "sandbox-secret-pro",
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Asks /v1/accounts one request at a time until `done()`, keeping each answer's latency. */
async function probeAccounts(url: string, bearer: string, done: () => boolean) {
  const latencies: number[] = [];
  let failures = 0;
  while (!done()) {
    const start = performance.now();
    const response = await fetch(`${url}/v1/accounts`, {
      headers: { authorization: `Bearer ${bearer}` },
    }).catch(() => undefined);
    await response?.arrayBuffer();
    latencies.push(performance.now() - start);
    if (response?.status !== 200) failures++;
    await sleep(PROBE_INTERVAL_MS);
  }
  return { latencies, failures };
}

async function runJob(
  sandbox: SandboxProcess,
  bearer: string,
  index: number,
  body: object,
  deadline: number,
): Promise<JobOutcome> {
  const headers = { authorization: `Bearer ${bearer}`, "content-type": "application/json" };
  const start = performance.now();
  const outcome = (status: string, error: string | null): JobOutcome => ({
    job: index + 1,
    status,
    error_message: error,
    duration_s: Math.round((performance.now() - start) / 100) / 10,
  });
  const created = await fetch(`${sandbox.url}/v1/bulk_api/jobs`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  if (created.status !== 201) return outcome(`refused ${created.status}`, await created.text());
  const { job_id: jobId } = (await created.json()) as { job_id: string };
  for (;;) {
    if (sandbox.exit()) return outcome("sandbox exited", sandbox.stderr().slice(-300) || null);
    const answer = await fetch(`${sandbox.url}/v1/bulk_api/jobs/${jobId}`, { headers }).catch(
      () => undefined,
    );
    const job = answer?.ok
      ? ((await answer.json()) as { status: string; error_message: string | null })
      : null;
    if (job && job.status !== "submitted") return outcome(job.status, job.error_message);
    if (performance.now() > deadline) {
      await fetch(`${sandbox.url}/v1/bulk_api/jobs/${jobId}`, { method: "DELETE", headers }).catch(
        () => undefined,
      );
      return outcome("cancelled at the time limit", null);
    }
    await sleep(POLL_INTERVAL_MS);
  }
}

async function main(): Promise<void> {
  const jobCount = Number(argument("--jobs") ?? 6);
  const perJob = Number(argument("--properties-per-job") ?? 1000);
  const days = Number(argument("--days") ?? 366);
  const format = argument("--format") ?? "csv";
  const timeoutMs = Number(argument("--timeout") ?? 900) * 1000;
  const exportDirectory = await mkdtemp(path.join(tmpdir(), "bench-jobs-"));
  const sandboxArgs = [
    "--now",
    NOW,
    "--job-delay",
    "0",
    // The bench measures generating files, not the live-like wait the CLI adds by default (the clock is frozen).
    "--job-time-scale",
    "0",
    // The probe and the status polls are one client; the bench measures the jobs, not the rate limit.
    "--rate-limit",
    "1000000",
    "--export-dir",
    exportDirectory,
    ...(argument("--max-rows") ? ["--job-max-rows", argument("--max-rows") as string] : []),
    ...(argument("--concurrency") ? ["--job-concurrency", argument("--concurrency") as string] : []),
  ];
  const sandbox = await startSandboxProcess(sandboxArgs);
  const pid = sandbox.child.pid as number;
  try {
    const bearer = await token(sandbox.url);
    // The sandbox builds its dataset on first use: a one-day job first, so that one-off build is not counted.
    const warmUp = await runJob(
      sandbox,
      bearer,
      -1,
      {
        report_type: "property",
        output_format: "csv",
        property_ids: [FIRST_PROPERTY_ID],
        start_date: TODAY,
        end_date: TODAY,
      },
      performance.now() + 60_000,
    );
    if (warmUp.status !== "succeeded") throw new Error(`the warm-up job ${warmUp.status}`);
    const started = performance.now();
    let finished = false;
    const probe = probeAccounts(sandbox.url, bearer, () => finished);
    const outcomes = await Promise.all(
      Array.from({ length: jobCount }, (_, index) =>
        runJob(
          sandbox,
          bearer,
          index,
          {
            report_type: "units",
            output_format: format,
            property_ids: Array.from({ length: perJob }, (_, n) => FIRST_PROPERTY_ID + index * perJob + n),
            start_date: isoDaysBefore(TODAY, days - 1),
            end_date: TODAY,
          },
          started + timeoutMs,
        ),
      ),
    );
    finished = true;
    const { latencies, failures } = await probe;
    const figures: Figures = {
      jobs: jobCount,
      properties_per_job: perJob,
      days,
      format,
      sandbox_args: sandboxArgs.filter((arg) => arg !== "--export-dir" && arg !== exportDirectory),
      sandbox_peak_rss_mb: sandbox.exit() ? NaN : peakRssMb(pid),
      accounts_requests: latencies.length,
      accounts_p50_ms: Math.round(percentile(latencies, 0.5) * 10) / 10,
      accounts_p95_ms: Math.round(percentile(latencies, 0.95) * 10) / 10,
      accounts_max_ms: Math.round(Math.max(...latencies) * 10) / 10,
      accounts_failures: failures,
      wall_s: Math.round((performance.now() - started) / 100) / 10,
      outcomes,
    };
    console.log(
      `${jobCount} units jobs (${perJob} properties x ${days} days, ${format}) in ${figures.wall_s} s; ` +
        `sandbox peak RSS ${figures.sandbox_peak_rss_mb} MB`,
    );
    console.log(
      `GET /v1/accounts while they ran: ${figures.accounts_requests} requests, p50 ${figures.accounts_p50_ms} ms, ` +
        `p95 ${figures.accounts_p95_ms} ms, max ${figures.accounts_max_ms} ms, ${failures} failed`,
    );
    for (const job of outcomes)
      console.log(
        `  job ${job.job}: ${job.status} after ${job.duration_s} s${job.error_message ? ` (${job.error_message})` : ""}`,
      );
    if (process.argv.includes("--json")) console.log(JSON.stringify({ jobs: figures }, null, 2));
  } finally {
    await sandbox.stop();
    await rm(exportDirectory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
