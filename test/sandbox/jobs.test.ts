import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Papa from "papaparse";
import { schemaProblems, contract } from "./support/contractValidator";
import { startTestSandbox, type TestSandbox } from "./support/fixtures";

let t: TestSandbox;
const WEBHOOK_SECRET = "test-webhook-secret";

beforeAll(async () => {
  t = await startTestSandbox({
    webhookSecret: WEBHOOK_SECRET,
    webhookRetryBaseDelayMs: 10,
    jobMaxRows: 2_000,
  });
});

afterAll(async () => {
  await t.sandbox.close();
});

interface Job {
  job_id: string;
  status: string;
  report_type: string;
  output_format: string;
  error_message: string | null;
  property_ids: number[];
}

async function submit(json: object, clientId = "demo-pro") {
  return t.client.as<Job>(clientId, "POST", "/v1/bulk_api/jobs", {
    json: {
      report_type: "property",
      output_format: "csv",
      start_date: "2026-03-01",
      end_date: "2026-03-03",
      property_ids: [100001, 100002],
      ...json,
    },
  });
}

async function job(jobId: string): Promise<Job> {
  return (await t.client.as<Job>("demo-pro", "GET", `/v1/bulk_api/jobs/${jobId}`)).body;
}

async function downloadLink(jobId: string): Promise<string> {
  const response = await t.client.as("demo-pro", "GET", `/v1/bulk_api/jobs/${jobId}/results`);
  expect(response.status).toBe(302);
  const location = response.headers.get("location") ?? "";
  expect(location.startsWith(t.sandbox.downloadUrl)).toBe(true);
  expect(new URL(location).origin).not.toBe(new URL(t.sandbox.url).origin);
  return location;
}

function columnsOf(schemaName: string): string[] {
  const schema = (contract.components as { schemas: Record<string, { "x-column-order": string[] }> }).schemas[
    schemaName
  ];
  return schema?.["x-column-order"] ?? [];
}

async function rowsOf(
  format: string,
  location: string,
): Promise<{ columns: string[]; rows: Record<string, unknown>[] }> {
  const response = await fetch(location);
  expect(response.status).toBe(200);
  if (format === "csv") {
    const parsed = Papa.parse<Record<string, unknown>>(await response.text(), {
      header: true,
      dynamicTyping: true,
      skipEmptyLines: true,
    });
    return { columns: parsed.meta.fields ?? [], rows: parsed.data };
  }
  if (format === "jsonl") {
    const rows = (await response.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    return { columns: Object.keys(rows[0] ?? {}), rows };
  }
  const directory = await mkdtemp(path.join(tmpdir(), "sandbox-test-"));
  try {
    const file = path.join(directory, "export.parquet");
    await writeFile(file, Buffer.from(await response.arrayBuffer()));
    const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(file) })) as Record<
      string,
      unknown
    >[];
    return { columns: Object.keys(rows[0] ?? {}), rows };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe("submitting", () => {
  it("creates a submitted job (201)", async () => {
    const response = await submit({});
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      status: "submitted",
      report_type: "property",
      output_format: "csv",
      error_message: null,
    });
  });

  it.each(["report_type", "output_format", "start_date", "end_date", "property_ids"])(
    "refuses a job without %s: the docs mark all five fields required",
    async (field) => {
      const complete = {
        report_type: "units",
        output_format: "jsonl",
        start_date: "2026-03-01",
        end_date: "2026-03-03",
        property_ids: [100001],
      };
      const response = await t.client.as<Job>("demo-pro", "POST", "/v1/bulk_api/jobs", {
        json: Object.fromEntries(Object.entries(complete).filter(([name]) => name !== field)),
      });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).toContain(field);
    },
  );

  it("accepts a 13-month range and exactly 400 days, and refuses 401 days", async () => {
    // Today is 2026-03-15: 2025-02-09..2026-03-15 is 400 days with both ends included.
    expect((await submit({ start_date: "2025-02-01", end_date: "2026-02-28" })).status).toBe(201);
    expect((await submit({ start_date: "2025-02-09", end_date: "2026-03-15" })).status).toBe(201);
    const tooLong = await submit({ start_date: "2025-02-08", end_date: "2026-03-15" });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ message: "The date range must not exceed 400 days" });
  });

  it.each([
    [{ start_date: "2026/03/01" }, "start_date must be a date in YYYY-MM-DD format"],
    [{ end_date: "March 3" }, "end_date must be a date in YYYY-MM-DD format"],
    [{ start_date: "2026-03-05", end_date: "2026-03-01" }, "start_date must not be after end_date"],
    [{ end_date: "2026-03-16" }, "end_date must not be in the future"],
    [{ start_date: "2024-01-01", end_date: "2024-01-02" }, "start_date must be within the last 730 days"],
    [{ start_date: "2025-01-01", end_date: "2026-03-01" }, "The date range must not exceed 400 days"],
    [{ property_ids: [] }, "property_ids is required and must be a non-empty array"],
    [{ property_ids: [100001, 7] }, "Unknown property ids: 7"],
    [{ report_type: "leases" }, "report_type must be one of: floorplans, property, units"],
    [{ output_format: "xlsx" }, "output_format must be one of: csv, jsonl, parquet"],
    [{ callback_url: "ftp://example.com/hook" }, "callback_url must be an http(s) URL"],
  ])("rejects %j with `Invalid parameter` and `%s`", async (json, message) => {
    const response = await submit(json);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: "Invalid parameter", message });
  });

  it("lists the caller's jobs newest first with pagination", async () => {
    const before = await t.client.as<{ pagination: { total_count: number } }>(
      "demo-pro",
      "GET",
      "/v1/bulk_api/jobs",
    );
    const created = [(await submit({})).body.job_id, (await submit({})).body.job_id];
    const page = await t.client.as<{
      jobs: Job[];
      pagination: { total_count: number; per_page: number; total_pages: number };
    }>("demo-pro", "GET", "/v1/bulk_api/jobs?per_page=1&page=1");
    expect(page.body.jobs).toHaveLength(1);
    expect(page.body.pagination).toMatchObject({
      total_count: before.body.pagination.total_count + 2,
      per_page: 1,
    });
    expect(page.body.jobs[0]?.job_id).toBe(created[1]);
    const second = await t.client.as<{ jobs: Job[] }>(
      "demo-pro",
      "GET",
      "/v1/bulk_api/jobs?per_page=1&page=2",
    );
    expect(second.body.jobs[0]?.job_id).toBe(created[0]);
  });
});

describe("the worker", () => {
  it.each(["csv", "jsonl", "parquet"])(
    "writes a property report as %s: one row per property per day, the live columns, decimal percents",
    async (format) => {
      const created = await submit({
        output_format: format,
        property_ids: [100001, 100002, 100003],
        start_date: "2026-03-01",
        end_date: "2026-03-04",
      });
      await t.sandbox.context.worker.flush();
      expect((await job(created.body.job_id)).status).toBe("succeeded");
      const { columns, rows } = await rowsOf(format, await downloadLink(created.body.job_id));
      expect(columns).toEqual(columnsOf("ExportPropertyRow"));
      expect(rows).toHaveLength(12);
      expect(new Set(rows.map((row) => `${String(row.id)} ${String(row.report_generation_date)}`)).size).toBe(
        12,
      );
      if (format !== "csv")
        for (const row of rows) expect(schemaProblems("ExportPropertyRow", row)).toEqual([]);
      const withRent = rows.find((row) => typeof row.avg_rent === "number");
      expect((withRent?.all_in_rent as number) > (withRent?.avg_rent as number)).toBe(true);
      expect(withRent?.advertised_occupancy_pct as number).toBeGreaterThan(0.5);
      expect(withRent?.advertised_occupancy_pct as number).toBeLessThanOrEqual(1);
      expect(Number.isInteger(withRent?.leases_last_30d)).toBe(true);
    },
  );

  it.each([
    ["units", "ExportUnitRow"],
    ["floorplans", "ExportFloorPlanRow"],
  ])("writes a %s report with the contract's columns", async (reportType, schemaName) => {
    const created = await submit({ report_type: reportType, output_format: "jsonl" });
    await t.sandbox.context.worker.flush();
    const { columns, rows } = await rowsOf("jsonl", await downloadLink(created.body.job_id));
    expect(columns).toEqual(columnsOf(schemaName));
    expect(rows.length).toBeGreaterThan(3);
    expect(new Set(rows.map((row) => row.date))).toEqual(new Set(["2026-03-01", "2026-03-02", "2026-03-03"]));
    for (const row of rows) expect(schemaProblems(schemaName, row)).toEqual([]);
  });

  it("fails a job that would exceed the row limit, with an error_message, and refuses its results", async () => {
    const ids = Array.from({ length: 200 }, (_, index) => 100001 + index);
    const created = await submit({
      report_type: "units",
      property_ids: ids,
      start_date: "2026-01-01",
      end_date: "2026-03-01",
    });
    await t.sandbox.context.worker.flush();
    const failed = await job(created.body.job_id);
    expect(failed.status).toBe("failed");
    expect(failed.error_message).toMatch(/Export too large/);
    const results = await t.client.as("demo-pro", "GET", `/v1/bulk_api/jobs/${failed.job_id}/results`);
    expect(results.status).toBe(409);
    expect(results.body).toMatchObject({ error: "Conflict", message: expect.stringContaining("failed") });
  });
});

describe("cancelling", () => {
  it("cancels a submitted job, which then never runs and has no results", async () => {
    const created = await submit({});
    const cancelled = await t.client.as<Job>(
      "demo-pro",
      "DELETE",
      `/v1/bulk_api/jobs/${created.body.job_id}`,
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    await t.sandbox.context.worker.flush();
    expect((await job(created.body.job_id)).status).toBe("cancelled");
    expect(
      (await t.client.as("demo-pro", "GET", `/v1/bulk_api/jobs/${created.body.job_id}/results`)).status,
    ).toBe(409);
    const again = await t.client.as("demo-pro", "DELETE", `/v1/bulk_api/jobs/${created.body.job_id}`);
    expect(again.status).toBe(409);
  });

  it("cancels a running job: the worker stops and writes nothing", async () => {
    const running = await startTestSandbox({ jobMaxRows: 100_000_000 });
    try {
      const ids = Array.from({ length: 1000 }, (_, index) => 100001 + index);
      const created = await running.client.as<Job>("demo-pro", "POST", "/v1/bulk_api/jobs", {
        json: {
          report_type: "units",
          output_format: "csv",
          property_ids: ids,
          start_date: "2025-03-16",
          end_date: "2026-03-15",
        },
      });
      // A year of units for 1,000 properties takes the worker far longer than one request.
      const working = running.sandbox.context.worker.flush();
      const cancelled = await running.client.as<Job>(
        "demo-pro",
        "DELETE",
        `/v1/bulk_api/jobs/${created.body.job_id}`,
      );
      expect(cancelled.body.status).toBe("cancelled");
      await working;
      const after = await running.client.as<Job>(
        "demo-pro",
        "GET",
        `/v1/bulk_api/jobs/${created.body.job_id}`,
      );
      expect(after.body.status).toBe("cancelled");
      expect(
        (await running.client.as("demo-pro", "GET", `/v1/bulk_api/jobs/${created.body.job_id}/results`))
          .status,
      ).toBe(409);
    } finally {
      await running.sandbox.close();
    }
  });

  it("refuses to cancel a succeeded job with a clear 409", async () => {
    const created = await submit({});
    await t.sandbox.context.worker.flush();
    const response = await t.client.as("demo-pro", "DELETE", `/v1/bulk_api/jobs/${created.body.job_id}`);
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ message: expect.stringContaining("succeeded") });
  });
});

describe("signed download URLs", () => {
  let location: string;

  beforeAll(async () => {
    const created = await submit({});
    await t.sandbox.context.worker.flush();
    location = await downloadLink(created.body.job_id);
  });

  it("rejects a tampered signature, file name or expiry with 403", async () => {
    const url = new URL(location);
    const signature = url.searchParams.get("signature") ?? "";
    const tampered = [
      location.replace(signature, `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`),
      location.replace(/\.csv\?/, ".jsonl?"),
      location.replace(/expires=(\d+)/, (_, value: string) => `expires=${Number(value) + 1}`),
    ];
    for (const link of tampered) expect((await fetch(link)).status).toBe(403);
  });

  it("refuses a request that carries an Authorization header", async () => {
    const response = await fetch(location, { headers: { authorization: "Bearer anything" } });
    expect(response.status).toBe(400);
  });

  it("is valid for 7 days and then answers 403", async () => {
    t.sandbox.clock.advance(7 * 24 * 3600 * 1000 - 1000);
    expect((await fetch(location)).status).toBe(200);
    t.sandbox.clock.advance(2000);
    expect((await fetch(location)).status).toBe(403);
    t.sandbox.clock.set("2026-03-15T12:00:00Z");
  });

  it("lets any browser origin read a signed file (even the null origin after a redirect) unless told not to", async () => {
    for (const origin of ["https://localhost:3000", "null"]) {
      const response = await fetch(location, { headers: { origin } });
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-expose-headers")).toContain("Content-Disposition");
    }
    const plain = await startTestSandbox({ downloadCors: false });
    try {
      const created = await plain.client.as<Job>("demo-pro", "POST", "/v1/bulk_api/jobs", {
        json: {
          report_type: "property",
          output_format: "csv",
          start_date: "2026-03-01",
          end_date: "2026-03-01",
          property_ids: [100001],
        },
      });
      await plain.sandbox.context.worker.flush();
      const results = await plain.client.as(
        "demo-pro",
        "GET",
        `/v1/bulk_api/jobs/${created.body.job_id}/results`,
      );
      const download = await fetch(results.headers.get("location") ?? "", {
        headers: { origin: "https://localhost:3000" },
      });
      expect(download.status).toBe(200);
      expect(download.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await plain.sandbox.close();
    }
  });
});

describe("callback webhook", () => {
  let server: Server;
  let url: string;
  const received: { headers: IncomingMessage["headers"]; body: string }[] = [];
  let failuresLeft = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        received.push({ headers: request.headers, body });
        response.statusCode = failuresLeft-- > 0 ? 503 : 204;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("POSTs a signed JSON payload when a job succeeds, retrying failed deliveries with backoff", async () => {
    received.length = 0;
    failuresLeft = 2;
    const created = await submit({ callback_url: url });
    await t.sandbox.context.worker.flush();
    expect(received.map((delivery) => delivery.headers["x-delivery-attempt"])).toEqual(["1", "2", "3"]);
    for (const delivery of received) {
      const expected = `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(delivery.body).digest("hex")}`;
      expect(delivery.headers["x-signature-sha256"]).toBe(expected);
      expect(delivery.headers["content-type"]).toBe("application/json");
    }
    const payload = JSON.parse(received[2]?.body ?? "{}") as { event: string; job: Job };
    expect(payload.event).toBe("bulk_job.succeeded");
    expect(payload.job).toMatchObject({ job_id: created.body.job_id, status: "succeeded" });
    expect(t.sandbox.context.worker.deliveries.at(-1)).toMatchObject({
      jobId: created.body.job_id,
      delivered: true,
      attempts: 3,
    });
  });

  it("notifies failed jobs too, and gives up after the configured attempts", async () => {
    received.length = 0;
    failuresLeft = 100;
    const ids = Array.from({ length: 200 }, (_, index) => 100001 + index);
    const created = await submit({
      callback_url: url,
      report_type: "units",
      property_ids: ids,
      start_date: "2026-01-01",
      end_date: "2026-03-01",
    });
    await t.sandbox.context.worker.flush();
    expect(received).toHaveLength(5);
    expect((JSON.parse(received[0]?.body ?? "{}") as { event: string }).event).toBe("bulk_job.failed");
    expect(t.sandbox.context.worker.deliveries.at(-1)).toMatchObject({
      jobId: created.body.job_id,
      delivered: false,
      attempts: 5,
    });
  });
});
