/**
 * Sandbox benchmark (issue 3): dataset build time for 20,000 properties and the latency of bulk
 * details calls of the contract's maximum size over HTTP on 127.0.0.1.
 *
 *   npx tsx test/bench/sandbox.bench.ts [--json] [--properties 20000] [--requests 200]
 *
 * The build is timed cold (first build in this process, as every jest test file pays it) and warm
 * (median of five more builds with fresh seeds, so the per-process memo does not answer them).
 */
import { performance } from "node:perf_hooks";
import { datasetFor } from "../../sandbox/data/dataset";
import { MAX_BULK_DETAILS_IDS, startSandbox } from "../../sandbox/server";
import { argument, percentile } from "./benchArgs";

interface Figures {
  properties: number;
  build_cold_ms: number;
  build_warm_median_ms: number;
  sandbox_start_ms: number;
  bulk_details_ids_per_call: number;
  bulk_details_requests: number;
  bulk_details_median_ms: number;
  bulk_details_p95_ms: number;
  bulk_details_response_kb: number;
}

function timeBuild(seed: number, properties: number): number {
  const start = performance.now();
  datasetFor(seed, properties);
  return performance.now() - start;
}

async function measure(properties: number, requests: number): Promise<Figures> {
  const cold = timeBuild(1, properties);
  const warm = [2, 3, 4, 5, 6].map((seed) => timeBuild(seed, properties));

  const startedAt = performance.now();
  // The bench must measure the server, not the rate limit or the quota.
  const sandbox = await startSandbox({
    port: 0,
    propertyCount: properties,
    rateLimit: 1_000_000,
    bulkExportQuota: Number.MAX_SAFE_INTEGER,
  });
  const started = performance.now() - startedAt;
  try {
    const tokenResponse = await fetch(`${sandbox.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: "demo-pro",
        client_secret: "sandbox-secret-pro",
      }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const ids = sandbox.context.dataset().properties.map((property) => property.id);
    const callFor = (round: number) => {
      const first = (round * MAX_BULK_DETAILS_IDS * 7) % Math.max(1, ids.length - MAX_BULK_DETAILS_IDS);
      return `${sandbox.url}/v1/properties/bulk_details?account_id=102&property_ids=${ids.slice(first, first + MAX_BULK_DETAILS_IDS).join(",")}`;
    };
    let bytes = 0;
    const call = async (round: number) => {
      const start = performance.now();
      const response = await fetch(callFor(round), { headers: { authorization: `Bearer ${token}` } });
      const body = await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`bulk details answered ${response.status}`);
      bytes = body.byteLength;
      return performance.now() - start;
    };
    for (let round = 0; round < 20; round++) await call(round);
    const latencies: number[] = [];
    for (let round = 0; round < requests; round++) latencies.push(await call(round + 20));
    return {
      properties,
      build_cold_ms: Math.round(cold),
      build_warm_median_ms: Math.round(percentile(warm, 0.5)),
      sandbox_start_ms: Math.round(started),
      bulk_details_ids_per_call: MAX_BULK_DETAILS_IDS,
      bulk_details_requests: requests,
      bulk_details_median_ms: Number(percentile(latencies, 0.5).toFixed(1)),
      bulk_details_p95_ms: Number(percentile(latencies, 0.95).toFixed(1)),
      bulk_details_response_kb: Math.round(bytes / 1024),
    };
  } finally {
    await sandbox.close();
  }
}

function printTable(f: Figures): void {
  console.log(
    `Sandbox benchmark: ${f.properties.toLocaleString("en-US")} properties, bulk details of ${f.bulk_details_ids_per_call} ids (the contract maximum)\n`,
  );
  console.table({
    "dataset build, cold (ms)": { value: f.build_cold_ms, goal: "< 5000" },
    "dataset build, warm median (ms)": { value: f.build_warm_median_ms, goal: "" },
    "startSandbox incl. cached dataset (ms)": { value: f.sandbox_start_ms, goal: "" },
    [`bulk details ${f.bulk_details_ids_per_call} ids, median (ms)`]: {
      value: f.bulk_details_median_ms,
      goal: "< 50",
    },
    [`bulk details ${f.bulk_details_ids_per_call} ids, p95 (ms)`]: { value: f.bulk_details_p95_ms, goal: "" },
    "bulk details response (KB)": { value: f.bulk_details_response_kb, goal: "" },
  });
  console.log(
    `\nBuild goal (< 5 s): ${f.build_cold_ms < 5000 ? "met" : "NOT met"}; bulk details goal (< 50 ms): ${f.bulk_details_median_ms < 50 ? "met" : "NOT met"}`,
  );
}

async function main(): Promise<void> {
  const figures = await measure(
    Number(argument("--properties") ?? 20_000),
    Number(argument("--requests") ?? 200),
  );
  if (process.argv.includes("--json")) console.log(JSON.stringify({ sandbox: figures }, null, 2));
  else printTable(figures);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
