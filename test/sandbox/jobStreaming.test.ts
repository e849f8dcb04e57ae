import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import Papa from "papaparse";
import { datasetFor } from "../../sandbox/data/dataset";
import type { PropertyCore } from "../../sandbox/data/properties";
import { dayNumber } from "../../sandbox/data/propertyRecord";
import { exportRowCount } from "../../sandbox/jobs/exportRowCount";
import * as exportRows from "../../sandbox/jobs/exportRows";
import { EXPORT_BATCH_ROWS } from "../../sandbox/jobs/exportWriter";
import { rawService } from "../support/rawService";
import { startSandboxProcess } from "../support/sandboxProcess";
import { FIXED_NOW, TODAY, startTestSandbox, type TestSandbox } from "./support/fixtures";

interface Job {
  job_id: string;
  status: string;
  error_message: string | null;
}

const ids = (count: number, from = 100001) => Array.from({ length: count }, (_, index) => from + index);

async function submit(t: TestSandbox, json: object): Promise<Job> {
  const response = await t.client.as<Job>("demo-pro", "POST", "/v1/bulk_api/jobs", {
    json: {
      report_type: "property",
      output_format: "csv",
      start_date: "2026-03-01",
      end_date: "2026-03-03",
      property_ids: [100001],
      ...json,
    },
  });
  expect(response.status).toBe(201);
  return response.body;
}

async function jobOf(t: TestSandbox, jobId: string): Promise<Job> {
  return (await t.client.as<Job>("demo-pro", "GET", `/v1/bulk_api/jobs/${jobId}`)).body;
}

/** The rows of a job's file, fetched through its results redirect. */
async function rowsOf(t: TestSandbox, jobId: string, format: string): Promise<Record<string, unknown>[]> {
  const results = await t.client.as("demo-pro", "GET", `/v1/bulk_api/jobs/${jobId}/results`);
  expect(results.status).toBe(302);
  const response = await fetch(results.headers.get("location") ?? "");
  if (format === "csv") {
    return Papa.parse<Record<string, unknown>>(await response.text(), { header: true, skipEmptyLines: true })
      .data;
  }
  if (format === "jsonl") {
    return (await response.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
  const directory = await mkdtemp(path.join(tmpdir(), "sandbox-jobs-"));
  try {
    const file = path.join(directory, "export.parquet");
    await writeFile(file, Buffer.from(await response.arrayBuffer()));
    return (await parquetReadObjects({ file: await asyncBufferFromFile(file) })) as Record<string, unknown>[];
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Rows of a units export over the given properties and days, from the sandbox's own row builder. */
function generatedUnitRows(properties: PropertyCore[], start: string, end: string): number {
  const dataset = datasetFor(1, 20_000);
  let rows = 0;
  for (const property of properties)
    for (let day = dayNumber(start); day <= dayNumber(end); day++)
      rows += exportRows.exportRowsFor(dataset, "units", property, day, dayNumber(TODAY), "fraction").length;
  return rows;
}

describe("the job queue", () => {
  it("runs at most --job-concurrency jobs at once; the others wait, still submitted, and then run", async () => {
    const t = await startTestSandbox({ jobConcurrency: 2 });
    try {
      const jobs = await Promise.all(
        [0, 1, 2].map(() =>
          submit(t, { property_ids: ids(40), start_date: "2026-01-01", end_date: "2026-03-01" }),
        ),
      );
      const running: number[] = [];
      const events: string[] = [];
      t.sandbox.context.worker.on("started", (_jobId, count) => {
        running.push(count);
        events.push("started");
      });
      t.sandbox.context.worker.on("ended", () => events.push("ended"));
      await t.sandbox.context.worker.flush();
      expect(running).toEqual([1, 2, 2]);
      // The third job waits for a free slot.
      expect(events.slice(0, 4)).toEqual(["started", "started", "ended", "started"]);
      for (const job of jobs) expect((await jobOf(t, job.job_id)).status).toBe("succeeded");
    } finally {
      await t.sandbox.close();
    }
  });
});

describe("the row limit", () => {
  let t: TestSandbox;
  afterEach(async () => {
    await t.sandbox.close();
  });

  it("fails a job over the limit before generating a single row, naming the exact size", async () => {
    t = await startTestSandbox({ jobMaxRows: 2_000 });
    const written: string[] = [];
    t.sandbox.context.worker.on("writing", (jobId) => written.push(jobId));
    const job = await submit(t, { property_ids: ids(50), start_date: "2026-01-01", end_date: "2026-03-01" });
    // A job within the limit is written: the worker says so when it starts generating rows.
    const fits = await submit(t, { property_ids: ids(1), start_date: "2026-01-01", end_date: "2026-01-31" });
    await t.sandbox.context.worker.flush();
    expect(written).toEqual([fits.job_id]);
    const failed = await jobOf(t, job.job_id);
    expect(failed.status).toBe("failed");
    // 50 properties x 60 days, one row each.
    expect(failed.error_message).toBe(
      "Export too large: 3,000 rows, more than the limit of 2,000; narrow the date range or the property list",
    );
  });

  it("sizes a units export exactly: at the limit it succeeds, one row under the size it fails", async () => {
    const dataset = datasetFor(1, 20_000);
    const properties = ids(20).map((id) => dataset.propertyById.get(id) as PropertyCore);
    const [start, end] = ["2026-02-01", TODAY];
    const size = generatedUnitRows(properties, start, end);
    const [first, last] = [dayNumber(start), dayNumber(end)];
    expect(properties.reduce((sum, p) => sum + exportRowCount(dataset, "units", p, first, last), 0)).toBe(
      size,
    );

    t = await startTestSandbox({ jobMaxRows: size });
    const body = {
      report_type: "units",
      property_ids: ids(20),
      start_date: start,
      end_date: end,
    };
    const fits = await submit(t, body);
    await t.sandbox.context.worker.flush();
    expect((await jobOf(t, fits.job_id)).status).toBe("succeeded");
    expect(await rowsOf(t, fits.job_id, "csv")).toHaveLength(size);
    await t.sandbox.close();

    t = await startTestSandbox({ jobMaxRows: size - 1 });
    const over = await submit(t, body);
    await t.sandbox.context.worker.flush();
    expect(await jobOf(t, over.job_id)).toMatchObject({
      status: "failed",
      error_message: expect.stringContaining(`${size.toLocaleString("en-US")} rows`),
    });
  });
});

describe("streamed export files", () => {
  let t: TestSandbox;
  let exportDirectory: string;
  beforeAll(async () => {
    exportDirectory = await mkdtemp(path.join(tmpdir(), "sandbox-exports-"));
    t = await startTestSandbox({ exportDirectory });
  });
  afterAll(async () => {
    await t.sandbox.close();
    await rm(exportDirectory, { recursive: true, force: true });
  });

  it.each(["csv", "jsonl", "parquet"] as const)(
    "writes every row of a %s export exactly once across batches",
    async (format) => {
      // 60 days of a property report: one row a day. Properties for a full batch (one parquet row group) and
      // a fifth of one more, so the file has a whole batch and a partial last one.
      const propertyCount = (EXPORT_BATCH_ROWS[format] * 1.2) / 60;
      const rowCount = propertyCount * 60;
      const job = await submit(t, {
        output_format: format,
        property_ids: ids(propertyCount),
        start_date: "2026-01-01",
        end_date: "2026-03-01",
      });
      await t.sandbox.context.worker.flush();
      const rows = await rowsOf(t, job.job_id, format);
      expect(rows.length).toBeGreaterThan(EXPORT_BATCH_ROWS[format]);
      expect(rows).toHaveLength(rowCount);
      const keys = new Set(rows.map((row) => `${String(row.id)} ${String(row.report_generation_date)}`));
      expect(keys.size).toBe(rowCount);
      // Properties in the order asked, each property's days in order.
      expect(rows[0]).toMatchObject({ report_generation_date: "2026-01-01" });
      expect(String(rows.at(-1)?.id)).toBe(String(100_000 + propertyCount));
      expect(rows.at(-1)).toMatchObject({ report_generation_date: "2026-03-01" });
    },
  );

  it("deletes the partial file of a job cancelled while it generates", async () => {
    const job = await submit(t, {
      report_type: "units",
      property_ids: ids(300),
      start_date: "2025-12-01",
      end_date: "2026-03-15",
    });
    const working = t.sandbox.context.worker.flush();
    const jobDirectory = path.join(exportDirectory, job.job_id);
    // Wait until the job writes its file, then cancel.
    while (!existsSync(jobDirectory) && t.sandbox.context.jobs.get(job.job_id)?.status === "submitted")
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(existsSync(jobDirectory)).toBe(true);
    const cancelled = await t.client.as<Job>("demo-pro", "DELETE", `/v1/bulk_api/jobs/${job.job_id}`);
    expect(cancelled.body.status).toBe("cancelled");
    await working;
    expect(existsSync(jobDirectory)).toBe(false);
  });
});

describe("an export that cannot be written", () => {
  it("fails the job with an error_message instead of leaving it submitted", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "sandbox-exports-"));
    // The export directory is a file, so the job's folder cannot be made.
    const notADirectory = path.join(directory, "plain-file");
    await writeFile(notADirectory, "");
    const t = await startTestSandbox({ exportDirectory: notADirectory });
    try {
      const job = await submit(t, {});
      await t.sandbox.context.worker.flush();
      expect(await jobOf(t, job.job_id)).toMatchObject({
        status: "failed",
        error_message: expect.stringMatching(/^Export failed: /),
      });
    } finally {
      await t.sandbox.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe("results before a job succeeded", () => {
  it("are refused (409, naming the status) while the job waits, while its file is being written, and after a cancel", async () => {
    const exportDirectory = await mkdtemp(path.join(tmpdir(), "sandbox-exports-"));
    const t = await startTestSandbox({ exportDirectory, jobConcurrency: 1 });
    const refusal = async (jobId: string, status: string) => {
      const response = await t.client.as("demo-pro", "GET", `/v1/bulk_api/jobs/${jobId}/results`);
      expect(response.headers.get("location")).toBeNull();
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ message: expect.stringContaining(`is ${status}`) });
    };
    try {
      const writing = await submit(t, {
        report_type: "units",
        property_ids: ids(300),
        start_date: "2025-12-01",
        end_date: TODAY,
      });
      const waiting = await submit(t, {});
      const working = t.sandbox.context.worker.flush();
      const file = path.join(exportDirectory, writing.job_id);
      while (!existsSync(file) && t.sandbox.context.jobs.get(writing.job_id)?.status === "submitted")
        await new Promise((resolve) => setTimeout(resolve, 5));
      expect(existsSync(file)).toBe(true);
      await refusal(writing.job_id, "submitted");
      await refusal(waiting.job_id, "submitted");
      await t.client.as("demo-pro", "DELETE", `/v1/bulk_api/jobs/${writing.job_id}`);
      await working;
      await refusal(writing.job_id, "cancelled");
      const results = await t.client.as("demo-pro", "GET", `/v1/bulk_api/jobs/${waiting.job_id}/results`);
      expect(results.status).toBe(302);
    } finally {
      await t.sandbox.close();
      await rm(exportDirectory, { recursive: true, force: true });
    }
  });
});

describe("a large export in a sandbox with a small heap", () => {
  it("completes with every row: rows go to disk as they are made, not into memory first", async () => {
    // About 100,000 unit rows: more than the heap holds as row objects and text (held until the end, the
    // job runs out of memory), a few MB one batch at a time.
    const body = {
      report_type: "units",
      output_format: "csv",
      property_ids: ids(100),
      start_date: "2026-02-01",
      end_date: TODAY,
    };
    const dataset = datasetFor(1, 2_000);
    const expected = body.property_ids.reduce(
      (sum, id) =>
        sum +
        exportRowCount(
          dataset,
          "units",
          dataset.propertyById.get(id) as PropertyCore,
          dayNumber(body.start_date),
          dayNumber(body.end_date),
        ),
      0,
    );
    expect(expected).toBeGreaterThan(100_000);
    const sandbox = await startSandboxProcess(
      // No live-like wait (the CLI's default): this measures writing the file, on a frozen clock.
      [
        "--properties",
        "2000",
        "--now",
        FIXED_NOW,
        "--job-delay",
        "0",
        "--job-time-scale",
        "0",
        "--job-max-rows",
        "100000000",
      ],
      ["--max-old-space-size=64"],
    );
    try {
      const service = await rawService(sandbox.url, "demo-pro", "sandbox-secret-pro");
      const job = await service.post<Job>("/bulk_api/jobs", body);
      let status = job.status;
      while (status === "submitted" && !sandbox.exit()) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        status = await service.get<Job>(`/bulk_api/jobs/${job.job_id}`).then(
          (answer) => answer.status,
          () => "unreachable",
        );
      }
      expect({ status, exit: sandbox.exit(), stderr: sandbox.stderr().slice(0, 500) }).toEqual({
        status: "succeeded",
        exit: undefined,
        stderr: "",
      });
      const file = await fetch(`${sandbox.url}/v1/bulk_api/jobs/${job.job_id}/results`, {
        headers: { Authorization: `Bearer ${service.token}` },
        redirect: "manual",
      });
      const download = await fetch(file.headers.get("location") ?? "");
      let lines = 0;
      for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>)
        for (const byte of chunk) if (byte === 10) lines++;
      // The header and one line per row.
      expect(lines).toBe(expected + 1);
    } finally {
      await sandbox.stop();
    }
  }, 120_000);
});
