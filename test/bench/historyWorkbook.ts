/**
 * The history workbook of the benchmark: an underwriter's sheet of RENT.HISTORY over ten properties and 13
 * months (four monthly figures for the ten, and each property's daily rent), evaluated cold (a new sign-in over
 * an empty IndexedDB) and warm (the same person signing in again over the same IndexedDB, as after a reload:
 * a sign-out would remove the person's cached answers), against a sandbox whose export
 * jobs take the live service's time. The same workbook runs twice, in the long layout and then in the wide one
 * (each over an IndexedDB of its own, so each cold run starts empty): the requests of the two side by side, and
 * whether every cell holds the same values in both (read back through shape/historyLayout.ts).
 *
 * The sandbox's clock is frozen and the add-in's clock is the same clock: the add-in's waits between polls move
 * it instead of passing, so the run takes the computer's time (the wall time reported) while the job takes the
 * live service's 7 to 8 minutes of clock time (reported as `job_minutes`, what a person waits live).
 */
import { startSandbox } from "../../sandbox/server";
import { useHistoryOptions } from "../../src/functions/historyExportsOf";
import { history } from "../../src/functions/historyFunctions";
import { historySeries, type HistoryLayout } from "../../src/functions/shape/historyLayout";
import { session } from "../../src/session/session";
import { WORKBOOK_CLIENT } from "./referenceWorkbook";
import { dataRequests, difference, TOKEN_PATH, watchTraffic, type Counts } from "./sandboxTraffic";

const NOW = "2026-03-15T12:00:00.000Z";
const IDS = Array.from({ length: 10 }, (_, index) => 100001 + index);
const RANGE = ["2025-02-01", "2026-02-28"] as const;

/** The workbook's cells: HISTORY's arguments after the ids. */
const CELLS: { ids: number[]; fields: string; interval: string; aggregation: string | null }[] = [
  { ids: IDS, fields: "avg_rent, avg_rent_psf", interval: "month", aggregation: "last" },
  { ids: IDS, fields: "avg_ner, all_in_ner", interval: "month", aggregation: "average" },
  {
    ids: IDS,
    fields: "advertised_occupancy_pct, leased_pct, exposure_pct",
    interval: "month",
    aggregation: "average",
  },
  { ids: IDS, fields: "leases_last_30d, applications_last_7d", interval: "quarter", aggregation: "sum" },
  ...IDS.map((id) => ({ ids: [id], fields: "avg_rent", interval: "day", aggregation: null })),
];

export interface HistoryRun {
  ms: number;
  /** Data API and download requests by route while the cells evaluated (sign-in excluded). */
  byEndpoint: Counts;
  requests: number;
  jobs: number;
  /** Sandbox clock time the run took: the export job's live-like duration. */
  jobMinutes: number;
  cellsInError: number;
  /** Every cell's final value, to compare cold with warm. */
  values: string;
}

export interface HistoryFigures {
  history_cells: number;
  history_requests_cold: number;
  history_jobs_cold: number;
  history_polls_cold: number;
  history_cold_ms: number;
  history_job_minutes_cold: number;
  history_requests_warm: number;
  history_warm_ms: number;
  history_cells_in_error: number;
  history_same_values_cold_and_warm: boolean;
  history_wide_requests_cold: number;
  history_wide_jobs_cold: number;
  history_wide_requests_warm: number;
  history_wide_cells_in_error: number;
  history_same_values_long_and_wide: boolean;
}

export interface HistoryResult {
  figures: HistoryFigures;
  cold: HistoryRun;
  warm: HistoryRun;
  wideCold: HistoryRun;
  wideWarm: HistoryRun;
}

/** Evaluates every cell as Excel would (all at once) and waits for each to end with a table or an error. */
function evaluate(layout: HistoryLayout): Promise<unknown[]> {
  return Promise.all(
    CELLS.map(
      (cell) =>
        new Promise<unknown>((resolve) =>
          history(
            [cell.ids],
            [[cell.fields]],
            RANGE[0],
            RANGE[1],
            cell.interval,
            cell.aggregation,
            null,
            layout,
            {
              address: "Sheet1!A1",
              functionName: "HISTORY",
              setResult(value) {
                if (value instanceof Error || (Array.isArray(value) && value.length > 1)) resolve(value);
              },
            },
          ),
        ),
    ),
  );
}

/** Each cell's values as "id|field|period" -> value, whichever the layout: what long and wide must agree on. */
function valuesByPoint(cells: unknown[]): string {
  return JSON.stringify(
    cells.map((cell) => {
      if (!Array.isArray(cell)) return String(cell);
      const points = (historySeries("HISTORY", cell as unknown[][]) ?? []).flatMap((line) =>
        line.points.map((point) => [`${line.keys.join(",")}|${line.field}|${point.period}`, point.value]),
      );
      return points.sort(([a], [b]) => String(a).localeCompare(String(b)));
    }),
  );
}

export async function measureHistoryWorkbook(latencyMs: number): Promise<HistoryResult> {
  const sandbox = await startSandbox({
    port: 0,
    now: NOW,
    jobTimeScale: 1,
    rateLimit: 1_000_000,
    faults: { latencyMs, errorRate: 0, rateLimitBurst: 0, dropRate: 0 },
  });
  const traffic = watchTraffic(sandbox);
  // The sandbox builds its dataset on first use: built before the timing, as the service's would be.
  sandbox.context.dataset();
  const run = async (layout: HistoryLayout): Promise<HistoryRun & { cells: unknown[] }> => {
    useHistoryOptions({
      now: () => sandbox.clock.now(),
      // Instead of waiting between polls: let the sandbox write what it was asked for, then move its clock.
      sleep: async (ms) => {
        await sandbox.context.worker.flush();
        sandbox.clock.advance(ms);
      },
    });
    session.useDataOptions({ databaseName: `rent-market-bench-history-${layout}-${process.pid}` });
    await session.signIn(
      { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}${TOKEN_PATH}` },
      { kind: "client", ...WORKBOOK_CLIENT },
    );
    const before = traffic.snapshot().requests;
    const clockBefore = sandbox.clock.now();
    const started = performance.now();
    const values = await evaluate(layout);
    const ms = performance.now() - started;
    const byEndpoint = difference(before, traffic.snapshot().requests);
    return {
      ms,
      byEndpoint,
      requests: dataRequests(byEndpoint),
      jobs: byEndpoint["/v1/bulk_api/jobs"] ?? 0,
      jobMinutes: Math.round(((sandbox.clock.now() - clockBefore) / 60_000) * 10) / 10,
      cellsInError: values.filter((value) => value instanceof Error).length,
      values: JSON.stringify(values),
      cells: values,
    };
  };
  try {
    const cold = await run("long");
    // Warm is a reload: the same person signs in again on the same IndexedDB (a sign-out would remove it).
    const warm = await run("long");
    // The same workbook in the wide layout, cold over an IndexedDB of its own, then warm.
    const wideCold = await run("wide");
    const wideWarm = await run("wide");
    return {
      figures: {
        history_cells: CELLS.length,
        history_requests_cold: cold.requests,
        history_jobs_cold: cold.jobs,
        history_polls_cold: cold.byEndpoint["/v1/bulk_api/jobs/:job_id"] ?? 0,
        history_cold_ms: Math.round(cold.ms),
        history_job_minutes_cold: cold.jobMinutes,
        history_requests_warm: warm.requests,
        history_warm_ms: Math.round(warm.ms),
        history_cells_in_error: cold.cellsInError,
        history_same_values_cold_and_warm: cold.values === warm.values,
        history_wide_requests_cold: wideCold.requests,
        history_wide_jobs_cold: wideCold.jobs,
        history_wide_requests_warm: wideWarm.requests,
        history_wide_cells_in_error: wideCold.cellsInError,
        history_same_values_long_and_wide: valuesByPoint(cold.cells) === valuesByPoint(wideCold.cells),
      },
      cold,
      warm,
      wideCold,
      wideWarm,
    };
  } finally {
    await session.signOut();
    useHistoryOptions({});
    await sandbox.close();
  }
}

export function printHistoryReport(result: HistoryResult): void {
  const { figures: f, cold, warm, wideCold, wideWarm } = result;
  console.log(
    `\nHistory workbook: ${f.history_cells} RENT.HISTORY cells over ${IDS.length} properties, ${RANGE[0]} to ${RANGE[1]}, ` +
      "export jobs taking the live service's time (sandbox clock moved by the add-in's poll waits)",
  );
  const runs = { "long cold": cold, "wide cold": wideCold, "long warm": warm, "wide warm": wideWarm };
  const routes = [...new Set(Object.values(runs).flatMap((run) => Object.keys(run.byEndpoint)))].sort();
  const perRoute = (route: (run: HistoryRun) => number) =>
    Object.fromEntries(Object.entries(runs).map(([name, run]) => [name, route(run)]));
  // Requests per route, the long layout's and the wide layout's side by side.
  console.table({
    ...Object.fromEntries(routes.map((route) => [route, perRoute((run) => run.byEndpoint[route] ?? 0)])),
    "all requests": perRoute((run) => run.requests),
  });
  console.table({
    "requests cold (jobs, polls, results, download)": { value: f.history_requests_cold, goal: "" },
    "export jobs cold": { value: f.history_jobs_cold, goal: "1" },
    "status polls cold": { value: f.history_polls_cold, goal: "" },
    "wall time cold (ms)": { value: f.history_cold_ms, goal: "" },
    "job time on the sandbox clock, cold (min; live-like)": {
      value: f.history_job_minutes_cold,
      goal: "5 to 10",
    },
    "requests warm (new sign-in, same IndexedDB)": { value: f.history_requests_warm, goal: "0" },
    "wall time warm (ms)": { value: f.history_warm_ms, goal: "" },
    "cells in error": { value: f.history_cells_in_error, goal: "0" },
  });
  const goals = [
    [`one export job cold (${f.history_jobs_cold})`, f.history_jobs_cold === 1],
    [`no request warm (${f.history_requests_warm})`, f.history_requests_warm === 0],
    [`same values cold and warm`, f.history_same_values_cold_and_warm],
    [
      `wide costs what long costs: cold ${f.history_wide_requests_cold} = ${f.history_requests_cold}, ` +
        `warm ${f.history_wide_requests_warm} = ${f.history_requests_warm}`,
      f.history_wide_requests_cold === f.history_requests_cold &&
        f.history_wide_requests_warm === f.history_requests_warm,
    ],
    [`same values long and wide`, f.history_same_values_long_and_wide],
    [`no cell in error wide (${f.history_wide_cells_in_error})`, f.history_wide_cells_in_error === 0],
  ] as const;
  for (const [goal, met] of goals) console.log(`${met ? "met    " : "MISSED "} ${goal}`);
}
