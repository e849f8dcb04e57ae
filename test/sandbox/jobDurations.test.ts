import { parseArguments } from "../../sandbox/cli/parseArguments";
import { startTestSandbox, type TestSandbox } from "./support/fixtures";

// The live service's recorded job times (api-notes, second pass): one property for one month about 30 s, one
// property for 13 months "a few minutes", ten properties for 13 months 5 to 10 minutes, one job never ended.
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const TEN_PROPERTIES = Array.from({ length: 10 }, (_, index) => 100001 + index);
const THIRTEEN_MONTHS = { start_date: "2025-02-01", end_date: "2026-02-28" };

interface Job {
  job_id: string;
  status: string;
}

async function submit(t: TestSandbox, json: object): Promise<string> {
  const response = await t.client.as<Job>("demo-pro", "POST", "/v1/bulk_api/jobs", {
    json: { report_type: "property", output_format: "csv", ...json },
  });
  expect(response.status).toBe(201);
  return response.body.job_id;
}

async function statusOf(t: TestSandbox, jobId: string): Promise<string> {
  return (await t.client.as<Job>("demo-pro", "GET", `/v1/bulk_api/jobs/${jobId}`)).body.status;
}

/** Submits, lets the worker write the file, then moves the sandbox clock and reports when the job ended. */
async function endsWithin(t: TestSandbox, json: object, notBefore: number, by: number): Promise<void> {
  const jobId = await submit(t, json);
  await t.sandbox.context.worker.flush();
  t.sandbox.clock.advance(notBefore);
  expect(await statusOf(t, jobId)).toBe("submitted");
  t.sandbox.clock.advance(by - notBefore);
  expect(await statusOf(t, jobId)).toBe("succeeded");
}

describe("export jobs take the live service's time on the sandbox clock", () => {
  let t: TestSandbox;
  beforeAll(async () => {
    // Tokens outlive the day the clock is moved on.
    t = await startTestSandbox({
      jobTimeScale: 1,
      jobStallReportType: "units",
      tokenLifetimeSeconds: 30 * 86_400,
    });
  });
  afterAll(() => t.sandbox.close());

  it("one property for one month: about 30 s", async () => {
    await endsWithin(
      t,
      { property_ids: [100001], start_date: "2026-01-01", end_date: "2026-01-31" },
      25 * SECOND,
      35 * SECOND,
    );
  });

  it("one property for 13 months: a few minutes", async () => {
    await endsWithin(t, { property_ids: [100001], ...THIRTEEN_MONTHS }, 1 * MINUTE, 4 * MINUTE);
  });

  it("ten properties for 13 months: 5 to 10 minutes", async () => {
    await endsWithin(t, { property_ids: TEN_PROPERTIES, ...THIRTEEN_MONTHS }, 5 * MINUTE, 10 * MINUTE);
  });

  it("a job of the stalled kind stays submitted however long it runs, and can still be cancelled", async () => {
    const jobId = await submit(t, {
      report_type: "units",
      property_ids: [100001],
      start_date: "2026-03-01",
      end_date: "2026-03-02",
    });
    await t.sandbox.context.worker.flush();
    t.sandbox.clock.advance(24 * 60 * MINUTE);
    expect(await statusOf(t, jobId)).toBe("submitted");
    const cancelled = await t.client.as<Job>("demo-pro", "DELETE", `/v1/bulk_api/jobs/${jobId}`);
    expect(cancelled.body.status).toBe("cancelled");
  });

  it("a job cancelled while it waits for its end time stays cancelled and gives no file", async () => {
    const jobId = await submit(t, {
      property_ids: [100001],
      start_date: "2026-01-01",
      end_date: "2026-01-31",
    });
    await t.sandbox.context.worker.flush();
    expect(t.sandbox.context.worker.heldJobs).toBe(1);
    await t.client.as<Job>("demo-pro", "DELETE", `/v1/bulk_api/jobs/${jobId}`);
    t.sandbox.clock.advance(10 * MINUTE);
    expect(await statusOf(t, jobId)).toBe("cancelled");
    expect(t.sandbox.context.worker.heldJobs).toBe(0);
    expect((await t.client.as("demo-pro", "GET", `/v1/bulk_api/jobs/${jobId}/results`)).status).toBe(409);
  });
});

describe("the job time scale", () => {
  it("a scale of 0.01 makes ten properties over 13 months take 3 to 6 seconds of sandbox time", async () => {
    const t = await startTestSandbox({ jobTimeScale: 0.01 });
    try {
      await endsWithin(t, { property_ids: TEN_PROPERTIES, ...THIRTEEN_MONTHS }, 3 * SECOND, 6 * SECOND);
    } finally {
      await t.sandbox.close();
    }
  });

  it("with real time, a held job ends on its own once its time has passed", async () => {
    const t = await startTestSandbox({ now: undefined, jobStartDelayMs: 0, jobTimeScale: 0.002 });
    try {
      // 0.002 of about 30 s: some 60 ms of real time.
      const jobId = await submit(t, {
        property_ids: [100001],
        start_date: "2026-01-01",
        end_date: "2026-01-31",
      });
      let status = await statusOf(t, jobId);
      for (let look = 0; status === "submitted" && look < 100; look++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = await statusOf(t, jobId);
      }
      expect(status).toBe("succeeded");
    } finally {
      await t.sandbox.close();
    }
  });

  it("is 1 (live-like) from the command line and 0 through startSandbox; --job-stall names a report type", () => {
    expect(parseArguments([]).options.jobTimeScale).toBe(1);
    expect(parseArguments(["--job-time-scale", "0.05"]).options.jobTimeScale).toBe(0.05);
    expect(parseArguments(["--job-stall", "units"]).options.jobStallReportType).toBe("units");
    expect(parseArguments([]).options.jobStallReportType).toBeUndefined();
    expect(() => parseArguments(["--job-time-scale=-1"])).toThrow("--job-time-scale must be a number >= 0");
    expect(() => parseArguments(["--job-time-scale", "fast"])).toThrow(
      "--job-time-scale must be a number >= 0",
    );
    expect(() => parseArguments(["--job-stall", "leases"])).toThrow(
      "--job-stall must be one of floorplans, property, units",
    );
  });
});
