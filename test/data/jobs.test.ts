import "fake-indexeddb/auto";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { downloadJobResults } from "../../src/taskpane/jobDownload";
import { layerFor, propertyIds } from "./support/dataHarness";
import { CANCEL_JOB, JOB, JOBS, SUBMIT_JOB } from "../../src/data/endpoints";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startInProcessSandbox({ propertyCount: 2000, jobStartDelayMs: 5 });
});

afterAll(async () => {
  await sandbox.close();
});

describe("export jobs through the data layer", () => {
  it("submits once, follows the job, and downloads its file without sending the token to the download host", async () => {
    const { layer } = layerFor(sandbox);
    const ids = propertyIds(sandbox, 2);
    const today = sandbox.clock.today();
    const before = sandbox.counters.get("/v1/bulk_api/jobs");
    const submitted = await layer.send(SUBMIT_JOB, {
      report_type: "property",
      output_format: "csv",
      property_ids: ids,
      start_date: today,
      end_date: today,
    });
    expect(sandbox.counters.get("/v1/bulk_api/jobs") - before).toBe(1);
    expect(submitted.status).toBe("submitted");

    let job = await layer.send(JOB, submitted.job_id);
    for (let polls = 0; job.status === "submitted" && polls < 200; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      job = await layer.send(JOB, submitted.job_id);
    }
    expect(job.status).toBe("succeeded");

    const text = new TextDecoder().decode(await layer.jobResults(submitted.job_id));
    const [header, ...rows] = text.trim().split(/\r?\n/);
    expect(header?.split(",").slice(0, 2)).toEqual(["report_generation_date", "id"]);
    expect(rows).toHaveLength(ids.length); // one row per property per day
    for (const id of ids) expect(rows.some((row) => row.includes(String(id)))).toBe(true);
  });

  it("the pane's download asks the service through the data layer's gate, and not after sign-out", async () => {
    const { layer } = layerFor(sandbox);
    const ids = propertyIds(sandbox, 1);
    const today = sandbox.clock.today();
    const submitted = await layer.send(SUBMIT_JOB, {
      report_type: "property",
      output_format: "csv",
      property_ids: ids,
      start_date: today,
      end_date: today,
    });
    for (let polls = 0; (await layer.send(JOB, submitted.job_id)).status !== "succeeded"; polls++) {
      if (polls > 200) throw new Error("The export job did not finish.");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const results = "/v1/bulk_api/jobs/:job_id/results";
    const before = sandbox.counters.get(results);
    const attempts = (await layer.stats()).requests.attempts;
    const file = await downloadJobResults(layer, submitted.job_id);
    expect(new TextDecoder().decode(file.bytes)).toContain(String(ids[0]));
    // The results request was one attempt of the gate's; the signed link is the download host's, not counted.
    expect((await layer.stats()).requests.attempts - attempts).toBe(1);

    const asked = sandbox.counters.get(results);
    expect(asked - before).toBe(1);
    await layer.close();
    await expect(downloadJobResults(layer, submitted.job_id)).rejects.toMatchObject({ kind: "unauthorized" });
    expect(sandbox.counters.get(results)).toBe(asked);
  });

  it("lists the caller's jobs, newest first, one request a page", async () => {
    const { layer } = layerFor(sandbox);
    const today = sandbox.clock.today();
    const body = {
      report_type: "property" as const,
      property_ids: propertyIds(sandbox, 1),
      start_date: today,
      end_date: today,
    };
    const first = await layer.send(SUBMIT_JOB, { ...body, output_format: "csv" });
    const second = await layer.send(SUBMIT_JOB, { ...body, output_format: "jsonl" });
    const before = sandbox.counters.get("/v1/bulk_api/jobs");
    const page = await layer.send(JOBS, { page: 1, per_page: 2 });
    expect(sandbox.counters.get("/v1/bulk_api/jobs") - before).toBe(1);
    expect(page.jobs.map((job) => job.job_id)).toEqual([second.job_id, first.job_id]);
    expect(page.pagination).toMatchObject({ current_page: 1, per_page: 2 });
    expect(page.pagination.total_count).toBeGreaterThanOrEqual(2);
  });

  it("says 'not available yet' for the results of a job that has not finished", async () => {
    const slow = await startInProcessSandbox({ propertyCount: 2000, jobStartDelayMs: 60_000 });
    try {
      const { layer } = layerFor(slow);
      const today = slow.clock.today();
      const submitted = await layer.send(SUBMIT_JOB, {
        report_type: "property",
        output_format: "csv",
        property_ids: propertyIds(slow, 1),
        start_date: today,
        end_date: today,
      });
      const before = slow.counters.get("/v1/bulk_api/jobs/:job_id/results");
      await expect(layer.jobResults(submitted.job_id)).rejects.toMatchObject({
        kind: "not_found",
        message: expect.stringContaining("Not available yet"),
      });
      expect(slow.counters.get("/v1/bulk_api/jobs/:job_id/results") - before).toBe(1); // not retried
      await layer.send(CANCEL_JOB, submitted.job_id);
      expect((await layer.send(JOB, submitted.job_id)).status).toBe("cancelled");
    } finally {
      await slow.close();
    }
  });
});
