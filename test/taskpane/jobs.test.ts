import { readFileSync } from "node:fs";
import { parquetMetadata } from "hyparquet";
import Papa from "papaparse";
import type { RunningSandbox } from "../../sandbox/server";
import { SANDBOX_VARIANTS } from "../../sandbox/variant";
import { ApiError } from "../../src/api/errors";
import { Session } from "../../src/session/session";
import { DownloadBlockedError } from "../../src/taskpane/downloadBlockedError";
import {
  JobsController,
  jobSheetName,
  type BatchJob,
  type JobsControllerOptions,
} from "../../src/taskpane/jobsController";
import { TooManyRowsForSheetError } from "../../src/taskpane/jobLoader";
import type { JobForm } from "../../src/taskpane/jobRequest";
import { describeError } from "../../src/taskpane/messages";
import { PaneInputError } from "../../src/taskpane/paneInputError";
import { SignInController } from "../../src/taskpane/signInController";
import { MockExcel } from "../excel/support/mockExcel";
import { browserLikeFetch, type BrowserLikeFetch } from "./support/browserLikeFetch";
import { clientForm, newSession, newSettings, newVault, startPaneSandbox } from "./support/paneHarness";

const PAGE_ORIGIN = "https://localhost:3000";

interface Pane {
  sandbox: RunningSandbox;
  session: Session;
  jobs: JobsController;
  excel: MockExcel;
  browser: BrowserLikeFetch;
}

const open: Pane[] = [];

/** A pane signed in as demo-pro to a sandbox whose jobs run only when the test says so (worker.flush). */
async function openPane(
  sandboxOptions: Parameters<typeof startPaneSandbox>[0] = {},
  hideManualRedirects = false,
  controllerOptions: JobsControllerOptions = {},
): Promise<Pane> {
  const sandbox = await startPaneSandbox({ jobStartDelayMs: 600_000, ...sandboxOptions });
  const browser = browserLikeFetch(PAGE_ORIGIN, { hideManualRedirects });
  const session = newSession(browser.fetch);
  await new SignInController({ session, ...newSettings(), vault: newVault().vault }).signIn(
    clientForm(sandbox, "demo-pro"),
  );
  const excel = new MockExcel();
  excel.addSheet("Model");
  const pane = {
    sandbox,
    session,
    jobs: new JobsController(session, excel.excel.run, browser.fetch, controllerOptions),
    excel,
    browser,
  };
  open.push(pane);
  return pane;
}

afterAll(async () => {
  await Promise.all(open.map((pane) => pane.sandbox.close()));
});

function daysAgo(sandbox: RunningSandbox, days: number): string {
  const today = new Date(`${sandbox.clock.today()}T00:00:00Z`);
  return new Date(today.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

function form(sandbox: RunningSandbox, overrides: Partial<JobForm> = {}): JobForm {
  const ids = [...sandbox.context.dataset().propertyById.keys()].slice(0, 3);
  return {
    reportType: "units",
    outputFormat: "csv",
    startDate: daysAgo(sandbox, 6),
    endDate: daysAgo(sandbox, 1),
    propertyIds: ids.join(", "),
    callbackUrl: "",
    ...overrides,
  };
}

/** Rows of the file the sandbox wrote, counted from the file itself (not by the add-in's parsers). */
function rowsInSourceFile(sandbox: RunningSandbox, job: BatchJob): number {
  const file = sandbox.context.jobs.get(job.job_id)?.file;
  if (!file) throw new Error(`Job ${job.job_id} has no file`);
  const bytes = readFileSync(file.path);
  switch (job.output_format) {
    case "csv":
      return Papa.parse(bytes.toString("utf8"), { header: true, skipEmptyLines: true }).data.length;
    case "jsonl":
      return bytes
        .toString("utf8")
        .split("\n")
        .filter((line) => line.trim() !== "").length;
    case "parquet":
      return Number(
        parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).num_rows,
      );
  }
}

const JOB_LOOK = "/v1/bulk_api/jobs/:job_id";

/** Submits and runs a job to completion, watching it as the pane does; the waits are recorded, not slept. */
async function finishedJob(pane: Pane, overrides: Partial<JobForm> = {}) {
  const submitted = await pane.jobs.submit(form(pane.sandbox, overrides));
  const waits: number[] = [];
  const seen: string[] = [];
  /** Looks at the job the service had answered at each wait. */
  const looksBeforeWait: number[] = [];
  const finished = await pane.jobs.watch(submitted, {
    onUpdate: (job) => seen.push(job.status),
    sleep: async (ms) => {
      waits.push(ms);
      looksBeforeWait.push(pane.sandbox.counters.get(JOB_LOOK));
      await pane.sandbox.context.worker.flush();
    },
  });
  return { submitted, finished, waits, seen, looksBeforeWait };
}

function downloadRequests(pane: Pane) {
  return pane.browser.sent.filter((request) => request.url.startsWith(pane.sandbox.downloadUrl));
}

describe("bulk export jobs from the pane", () => {
  it("submits a job and polls it until it succeeds, waiting before each new look", async () => {
    const pane = await openPane();

    const { submitted, finished, waits, seen, looksBeforeWait } = await finishedJob(pane);

    expect(submitted.status).toBe("submitted");
    expect(finished.job_id).toBe(submitted.job_id);
    expect(finished.status).toBe("succeeded");
    expect(seen).toEqual(["submitted", "succeeded"]);
    expect(waits).toEqual([2_000]);
    // The submission's answer is the first look: the job is first asked about after the first wait.
    expect(looksBeforeWait).toEqual([0]);
    expect(pane.sandbox.counters.get(JOB_LOOK)).toBe(1);
  });

  it("lists the client's jobs, newest first", async () => {
    const pane = await openPane();
    const first = await pane.jobs.submit(form(pane.sandbox));
    const second = await pane.jobs.submit(form(pane.sandbox, { outputFormat: "jsonl" }));

    const listed = await pane.jobs.list();

    expect(listed.map((job) => job.job_id)).toEqual([second.job_id, first.job_id]);
  });

  it("cancels a submitted job; its results then cannot load, and the pane says why", async () => {
    const pane = await openPane();
    const submitted = await pane.jobs.submit(form(pane.sandbox));

    const cancelled = await pane.jobs.cancel(submitted.job_id);
    const failure = await pane.jobs.load(cancelled).catch((error: unknown) => error);

    expect(cancelled.status).toBe("cancelled");
    expect((await pane.jobs.list())[0]?.status).toBe("cancelled");
    expect(describeError(failure)).toMatch(/is cancelled.*results exist only for succeeded jobs/);
    expect(pane.excel.sheets.map((sheet) => sheet.name)).toEqual(["Model"]);
  });

  it("refuses a bad form before asking the service", async () => {
    const pane = await openPane();
    const before = pane.sandbox.counters.total();
    await expect(pane.jobs.submit(form(pane.sandbox, { startDate: "2026-02-30" }))).rejects.toThrow(
      /Start date must be a date/,
    );
    await expect(pane.jobs.submit(form(pane.sandbox, { propertyIds: "100001, 12.5" }))).rejects.toThrow(
      /"12.5" is not a property id/,
    );
    expect(pane.sandbox.counters.total()).toBe(before);
  });

  it("takes properties by name or address, one a line, as formulas do; a name several share lists them and submits nothing", async () => {
    const pane = await openPane();
    const { properties } = pane.sandbox.context.dataset();
    const holding = (text: string, field: "name" | "address") =>
      properties.filter((each) => each[field].toLowerCase().includes(text.toLowerCase()));
    const named = properties.find((each) => holding(each.name, "name").length === 1);
    const shared = properties.find(
      (each) => properties.filter((other) => other.name === each.name).length > 1,
    );
    const addressed = properties.find(
      (each) => each !== named && holding(each.address, "address").length === 1,
    );
    if (!named || !shared || !addressed)
      throw new Error("the sandbox lacks a unique name, a shared one or an address");
    const [id] = properties
      .map((each) => each.id)
      .filter((each) => each !== named.id && each !== addressed.id);

    const job = await pane.jobs.submit(
      form(pane.sandbox, {
        propertyIds: `${id}\n${named.name.toLowerCase()}\n${addressed.address}, ${addressed.city}`,
      }),
    );

    expect(job.property_ids).toEqual([id, named.id, addressed.id]);
    const failure = await pane.jobs
      .submit(form(pane.sandbox, { propertyIds: `${id}\n${shared.name}` }))
      .catch((error: unknown) => error);
    expect(describeError(failure)).toMatch(
      new RegExp(
        `^Properties: ambiguous: \\d+ properties named "${shared.name}": ${shared.id} ${shared.name} \\(`,
      ),
    );
    expect(describeError(failure)).toMatch(/Use the id: \d+\.$/);
    expect((await pane.jobs.list()).map((listed) => listed.job_id)).toEqual([job.job_id]);
  });

  it("says a name no property has is the person's to fix, and a service failure while resolving it is the service's", async () => {
    const pane = await openPane();
    const missing = await pane.jobs
      .submit(form(pane.sandbox, { propertyIds: "Nowhere Such Towers" }))
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(PaneInputError);
    expect(describeError(missing)).toMatch(/^No property named "Nowhere Such Towers"/);

    pane.sandbox.faults.update({ errorRate: 1 });
    const failed = await pane.jobs
      .submit(form(pane.sandbox, { propertyIds: "Nowhere Such Towers, Austin" }))
      .catch((error: unknown) => error);
    pane.sandbox.faults.reset();
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).not.toBeInstanceOf(PaneInputError);
    expect((await pane.jobs.list()).map((listed) => listed.job_id)).toEqual([]);
  });

  it("downloads a job's file byte for byte, with its name, for Save file", async () => {
    const pane = await openPane();
    const { finished } = await finishedJob(pane, { outputFormat: "parquet", reportType: "floorplans" });
    const source = pane.sandbox.context.jobs.get(finished.job_id)?.file;

    const file = await pane.jobs.download(finished);

    expect(file.fileName).toBe(source?.name);
    expect(Buffer.from(file.bytes).equals(readFileSync(source?.path ?? ""))).toBe(true);
  });

  it("when the download host refuses the browser, says so, offers the link, and loads the saved file", async () => {
    const pane = await openPane({ downloadCors: false });
    const { finished } = await finishedJob(pane, { outputFormat: "parquet" });

    const failure = await pane.jobs.load(finished).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(DownloadBlockedError);
    const link = (failure as DownloadBlockedError).link ?? "";
    expect(link.startsWith(`${pane.sandbox.downloadUrl}/download/${finished.job_id}/`)).toBe(true);
    expect(describeError(failure)).toMatch(/Open download link.*Load from file/);
    expect(link).not.toMatch(/token|bearer/i);
    for (const request of downloadRequests(pane)) expect(request.headers.has("authorization")).toBe(false);

    // The person opens the link in a browser (no token, no CORS there), then picks the saved file.
    const saved = new Uint8Array(await (await fetch(link)).arrayBuffer());
    const loaded = await pane.jobs.loadFile(saved, "units.parquet", finished);
    expect(loaded.rowsWritten).toBe(rowsInSourceFile(pane.sandbox, finished));
  });

  it("in a browser that hides the redirect, follows it; the token is dropped at the download host", async () => {
    const pane = await openPane({}, true);
    const { finished } = await finishedJob(pane, { outputFormat: "jsonl" });

    const loaded = await pane.jobs.load(finished);

    expect(loaded.rowsWritten).toBe(rowsInSourceFile(pane.sandbox, finished));
    const downloads = downloadRequests(pane);
    expect(downloads).toHaveLength(1);
    expect(downloads[0]?.headers.has("authorization")).toBe(false);
  });

  it("in a browser that hides the redirect and may not read the download host, offers Load from file", async () => {
    const pane = await openPane({ downloadCors: false }, true);
    const { finished } = await finishedJob(pane, { outputFormat: "csv" });

    const failure = await pane.jobs.load(finished).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(DownloadBlockedError);
    expect((failure as DownloadBlockedError).link).toBeUndefined();
    expect(describeError(failure)).toMatch(/Load from file/);
  });

  it("takes property ids from the selected cells", async () => {
    const pane = await openPane();
    pane.excel.setValues("Model", "B2", [["property_id"], [100005], [""], [100007]]);
    pane.excel.selection = { sheet: "Model", rect: { row: 1, column: 1, rowCount: 4, columnCount: 1 } };

    expect(await pane.jobs.propertyIdsFromSelection()).toEqual([100005, 100007]);
  });

  it("refuses a picked file that is not an export", async () => {
    const pane = await openPane();
    await expect(pane.jobs.loadFile(new Uint8Array([1, 2, 3]), "notes.txt", undefined)).rejects.toThrow(
      /not an export file/,
    );
  });
});

describe.each(SANDBOX_VARIANTS)("loading jobs against the %s variant", (variant) => {
  it.each(["csv", "jsonl", "parquet"] as const)(
    "loads a succeeded %s job into a new sheet: every row of the sandbox's file, no token to the download host",
    async (outputFormat) => {
      const pane = await openPane({ variant });
      const { finished } = await finishedJob(pane, { outputFormat });
      const expectedRows = rowsInSourceFile(pane.sandbox, finished);
      const received: number[] = [];

      const loaded = await pane.jobs.load(finished, {
        onDownloadProgress: (progress) => received.push(progress.bytesReceived),
      });

      expect(expectedRows).toBeGreaterThan(0);
      expect(loaded.rowsWritten).toBe(expectedRows);
      expect(loaded.sheetName).toBe(jobSheetName(finished));
      expect(loaded.sheetName).not.toContain(finished.job_id.slice(0, 8));
      expect(pane.excel.sheet(loaded.sheetName).values).toHaveLength(expectedRows + 1);
      expect(received.at(-1)).toBe(
        readFileSync(pane.sandbox.context.jobs.get(finished.job_id)?.file?.path ?? "").length,
      );
      const downloads = downloadRequests(pane);
      expect(downloads).toHaveLength(1);
      for (const request of downloads) expect(request.headers.has("authorization")).toBe(false);
      expect(pane.sandbox.counters.get("download:/download/:jobId/:fileName")).toBe(1);
    },
  );

  it.each(["csv", "jsonl", "parquet"] as const)(
    "loads a %s property report with its percents as fractions under Excel's percent format",
    async (outputFormat) => {
      const pane = await openPane({ variant });
      const { finished } = await finishedJob(pane, { outputFormat, reportType: "property" });
      const file = pane.sandbox.context.jobs.get(finished.job_id)?.file?.path ?? "";
      const firstLine = readFileSync(file, "utf8").split("\n")[0] ?? "";

      const loaded = await pane.jobs.load(finished);

      const sheet = pane.excel.sheet(loaded.sheetName);
      const occupancy = sheet.values[0]?.indexOf("Advertised occupancy %") ?? -1;
      const values = sheet.values.slice(1).map((row) => row[occupancy]);
      const numbers = values.filter((value): value is number => typeof value === "number");
      expect(numbers.length).toBeGreaterThan(0);
      // Occupancy as a fraction (e.g. 0.946, shown 94.60%), whether the file held 0.946 or 94.6.
      for (const value of numbers) expect(value).toBeGreaterThan(0.5);
      for (const value of numbers) expect(value).toBeLessThanOrEqual(1);
      expect(sheet.numberFormats[1]?.[occupancy]).toBe("0.00%");
      if (outputFormat === "csv") expect(firstLine).toMatch(/^report_generation_date,id,/);
    },
  );
});

describe("a bulk export file longer than a worksheet", () => {
  it("is refused before any write, says so, then splits across sheets with the header on each, every row once", async () => {
    // A small grid stands in for Excel's: the sandbox's file (3 properties x 6 days of units) needs 3 sheets.
    const probe = await openPane();
    const { finished: probeJob } = await finishedJob(probe);
    const rows = rowsInSourceFile(probe.sandbox, probeJob);
    const maxSheetRows = Math.ceil(rows / 3) + 1;
    const pane = await openPane({}, false, { maxSheetRows });
    const { finished } = await finishedJob(pane);
    expect(rowsInSourceFile(pane.sandbox, finished)).toBe(rows);

    const refused = await pane.jobs.load(finished).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(TooManyRowsForSheetError);
    expect(describeError(refused)).toMatch(
      new RegExp(
        `has ${rows.toLocaleString("en-US")} rows, more than an Excel worksheet holds.*Nothing was written. Split it across 3 sheets, or save the file`,
      ),
    );
    expect(pane.excel.requests).toEqual([]);
    expect(pane.excel.sheets.map((sheet) => sheet.name)).toEqual(["Model"]);

    const prepared = (refused as TooManyRowsForSheetError).prepared;
    const loaded = await pane.jobs.write(prepared, { split: true });

    const base = jobSheetName(finished);
    expect(loaded.sheetNames).toEqual([base, `${base} (2)`, `${base} (3)`]);
    expect(loaded.rowsWritten).toBe(rows);
    const header = pane.excel.sheet(base).values[0];
    const written = loaded.sheetNames.flatMap((name) => {
      const sheet = pane.excel.sheet(name);
      expect(sheet.values[0]).toEqual(header);
      expect(sheet.values.length).toBeLessThanOrEqual(maxSheetRows);
      return sheet.values.slice(1);
    });
    expect(written).toEqual(prepared.table.rows);
    // The bytes kept for "Save file" are the sandbox's file as it is.
    const source = pane.sandbox.context.jobs.get(finished.job_id)?.file;
    expect(Buffer.from(prepared.bytes).equals(readFileSync(source?.path ?? ""))).toBe(true);
    expect(prepared.fileName).toBe(source?.name);
  });

  // Parsing and shaping a million csv rows takes seconds on a busy machine, hence the longer bound.
  it("at Excel's own limit: a file of 1,048,576 rows is refused before any write", async () => {
    const pane = await openPane();
    // One narrow column of one id keeps making and parsing a million rows cheap; the count is what matters here.
    const tooLong = new TextEncoder().encode(`id\n${"100001\n".repeat(1_048_576)}`);

    const refused = await pane.jobs
      .loadFile(tooLong, "property.csv", undefined)
      .catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(TooManyRowsForSheetError);
    expect(describeError(refused)).toMatch(
      /property\.csv has 1,048,576 rows, more than an Excel worksheet holds \(1,048,575 under the header\).*Split it across 2 sheets/,
    );
    expect(pane.excel.requests).toEqual([]);
    expect(pane.excel.sheets.map((sheet) => sheet.name)).toEqual(["Model"]);
  }, 120_000);
});
