import { EventEmitter } from "node:events";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SandboxClock } from "../clock";
import type { Dataset } from "../data/dataset";
import type { PropertyCore } from "../data/properties";
import { dayNumber } from "../data/propertyRecord";
import type { ShapeVariant } from "../variant";
import { CooperativeSlice } from "./cooperativeSlice";
import { exportRowCount } from "./exportRowCount";
import { EXPORT_ROW_SCHEMAS, exportRowsFor, type ExportRow } from "./exportRows";
import { EXPORT_BATCH_ROWS, FILE_EXTENSIONS, openExportFile, type ExportFileWriter } from "./exportWriter";
import { jobDurationMs } from "./jobDuration";
import { jobResource, type BulkJob, type JobStore, type ReportType } from "./jobStore";
import { deliverWebhook, type WebhookSettings } from "./webhook";

export interface WebhookDelivery {
  jobId: string;
  url: string;
  delivered: boolean;
  attempts: number;
}

export interface JobWorkerSettings {
  startDelayMs: number;
  maxRows: number;
  /** Jobs that generate at once; the others wait their turn, still `submitted`. */
  maxRunningJobs: number;
  exportDirectory: string | undefined;
  webhook: WebhookSettings;
  /** How the property report writes its percentages (the sandbox's variant). */
  percentScale: ShapeVariant["percentScale"];
  /**
   * Share of a live job's end-to-end time (`jobDuration.ts`) a job takes, on the sandbox clock: 1 = as long
   * as on the live service, 0 = done as soon as its file is written.
   */
  timeScale: number;
  /** Jobs of this report type are accepted and never end (stay `submitted`), as one live job did. */
  stallReportType: ReportType | undefined;
}

/** A job whose file is written, held `submitted` until the sandbox clock reaches the live-like end time. */
interface HeldJob {
  job: BulkJob;
  readyAtMs: number;
  directory: string;
}

/** setTimeout's longest delay; a longer hold re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the worker reports as jobs start and stop generating (tests and benchmarks listen). */
export interface JobWorkerEvents {
  started: [jobId: string, runningJobs: number];
  /** The job's export file is opened and its rows are about to be generated (a job sized over the limit never gets here). */
  writing: [jobId: string];
  ended: [jobId: string];
}

const tooLarge = (rows: number, limit: number) =>
  `Export too large: ${rows.toLocaleString("en-US")} rows, more than the limit of ` +
  `${limit.toLocaleString("en-US")}; narrow the date range or the property list`;

/**
 * The background worker: picks up submitted jobs after a delay, runs at most `maxRunningJobs` at
 * a time in submission order, sizes each export before generating it (a job over the row limit
 * fails at once), streams its rows to the export file batch by batch, then notifies the callback
 * URL. Generation yields to the event loop every few milliseconds so the API keeps answering and
 * a cancellation lands quickly.
 */
export class JobWorker extends EventEmitter<JobWorkerEvents> {
  /** Jobs waiting for their start delay, by timer. */
  private readonly timers = new Map<NodeJS.Timeout, BulkJob>();
  /** Jobs past their delay, waiting for a free slot, oldest first. */
  private queue: BulkJob[] = [];
  private readonly generating = new Set<string>();
  /** Generation and callback deliveries still under way. */
  private readonly running = new Set<Promise<void>>();
  private readonly sleepers = new Set<(completed: boolean) => void>();
  private directory: Promise<string> | undefined;
  private ownsDirectory = false;
  private closed = false;
  /** Written jobs waiting for their live-like end time, by id. */
  private readonly held = new Map<string, HeldJob>();
  private heldTimer: NodeJS.Timeout | undefined;
  private readonly stopWatchingClock: () => void;
  /** Every callback delivery, finished or given up, in order. */
  readonly deliveries: WebhookDelivery[] = [];

  constructor(
    private readonly store: JobStore,
    private readonly clock: SandboxClock,
    private readonly dataset: () => Dataset,
    private readonly settings: JobWorkerSettings,
  ) {
    super();
    // A frozen clock moves only when set or advanced: that is when a held job may come due.
    this.stopWatchingClock = clock.onChange(() => this.releaseDueJobs());
  }

  /** Changes how long jobs take and which kind stalls, for jobs that start from now on. */
  configure(changes: Partial<Pick<JobWorkerSettings, "timeScale" | "stallReportType">>): void {
    Object.assign(this.settings, changes);
  }

  /** Jobs whose file is written and that wait for their end time (the sandbox clock). */
  get heldJobs(): number {
    return this.held.size;
  }

  schedule(job: BulkJob): void {
    // A stalled kind is accepted like any job and then never picked up: it stays `submitted` until cancelled.
    if (job.reportType === this.settings.stallReportType) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.enqueue(job);
    }, this.settings.startDelayMs);
    this.timers.set(timer, job);
  }

  /**
   * Queues every job still in its start delay now and resolves when all work is done, callbacks
   * included (tests use a long start delay and this). Jobs held for their live-like end time stay held:
   * they end when the sandbox clock reaches it.
   */
  async flush(): Promise<void> {
    for (const [timer, job] of this.timers) {
      clearTimeout(timer);
      this.timers.delete(timer);
      this.enqueue(job);
    }
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopWatchingClock();
    clearTimeout(this.heldTimer);
    this.held.clear();
    for (const timer of this.timers.keys()) clearTimeout(timer);
    this.timers.clear();
    this.queue = [];
    for (const wake of this.sleepers) wake(false);
    while (this.running.size > 0) await Promise.all([...this.running]);
    if (this.directory && this.ownsDirectory)
      await rm(await this.directory, { recursive: true, force: true });
  }

  private enqueue(job: BulkJob): void {
    this.queue.push(job);
    this.startWaitingJobs();
  }

  private startWaitingJobs(): void {
    while (!this.closed && this.generating.size < this.settings.maxRunningJobs) {
      const job = this.queue.shift();
      if (!job) return;
      if (job.status !== "submitted") continue;
      this.generating.add(job.jobId);
      this.emit("started", job.jobId, this.generating.size);
      // Live times are end to end: from submission, start delay and queueing included.
      const readyAtMs = Date.parse(job.createdAt) + jobDurationMs(job, this.settings.timeScale);
      // The next job is tracked before this one leaves `running`, so flush() never sees a gap.
      this.track(
        this.generate(job, readyAtMs).finally(() => {
          this.generating.delete(job.jobId);
          this.emit("ended", job.jobId);
          this.startWaitingJobs();
        }),
      );
    }
  }

  private track(task: Promise<void>): void {
    this.running.add(task);
    void task.finally(() => this.running.delete(task));
  }

  private exportDirectory(): Promise<string> {
    if (!this.directory) {
      const configured = this.settings.exportDirectory;
      this.ownsDirectory = configured === undefined;
      this.directory = configured
        ? mkdir(configured, { recursive: true }).then(() => configured)
        : mkdtemp(path.join(tmpdir(), "rent-market-sandbox-"));
    }
    return this.directory;
  }

  private stopped(job: BulkJob): boolean {
    return job.status !== "submitted" || this.closed;
  }

  private async generate(job: BulkJob, readyAtMs: number): Promise<void> {
    const dataset = this.dataset();
    const today = dayNumber(this.clock.today());
    const first = dayNumber(job.startDate);
    const last = dayNumber(job.endDate);
    const properties = job.propertyIds
      .map((id) => dataset.propertyById.get(id))
      .filter((property): property is PropertyCore => property !== undefined);
    const slice = new CooperativeSlice(() => this.generating.size);

    let rowCount = 0;
    for (const property of properties) {
      rowCount += exportRowCount(dataset, job.reportType, property, first, last);
      await slice.yieldIfDue();
      if (this.stopped(job)) return;
    }
    if (rowCount > this.settings.maxRows)
      return this.finish(job, "failed", tooLarge(rowCount, this.settings.maxRows));

    const name = `${job.reportType}_${job.startDate}_${job.endDate}.${FILE_EXTENSIONS[job.outputFormat]}`;
    let directory: string | undefined;
    let file: ExportFileWriter | undefined;
    const discard = async () => {
      await file?.abort();
      if (directory) await rm(directory, { recursive: true, force: true });
      this.store.update(job, { file: null });
    };
    try {
      directory = path.join(await this.exportDirectory(), job.jobId);
      await mkdir(directory, { recursive: true });
      const filePath = path.join(directory, name);
      file = openExportFile(filePath, job.outputFormat, EXPORT_ROW_SCHEMAS[job.reportType]);
      // The job has its file from the moment it is opened, growing on disk; the results route hands
      // it out only once the job has succeeded.
      this.store.update(job, { file: { path: filePath, name } });
      this.emit("writing", job.jobId);
      let batch: ExportRow[] = [];
      for (const property of properties) {
        for (let day = first; day <= last; day++) {
          for (const row of exportRowsFor(
            dataset,
            job.reportType,
            property,
            day,
            today,
            this.settings.percentScale,
          ))
            batch.push(row);
          if (batch.length >= EXPORT_BATCH_ROWS[job.outputFormat]) {
            await file.write(batch);
            batch = [];
          }
          await slice.yieldIfDue();
          if (this.stopped(job)) return await discard();
        }
      }
      await file.write(batch);
      await file.close();
      if (this.stopped(job)) return await discard();
      this.hold({ job, readyAtMs, directory });
    } catch (error) {
      await discard();
      this.finish(job, "failed", `Export failed: ${(error as Error).message}`);
    }
  }

  /** Keeps a written job `submitted` until the sandbox clock reaches its end time. */
  private hold(held: HeldJob): void {
    this.held.set(held.job.jobId, held);
    this.releaseDueJobs();
  }

  /** Ends the held jobs that are due (or were cancelled meanwhile), then sleeps until the next is due. */
  private releaseDueJobs(): void {
    if (this.closed) return;
    const now = this.clock.now();
    for (const [jobId, held] of this.held) {
      if (held.job.status !== "submitted") {
        this.held.delete(jobId);
        this.store.update(held.job, { file: null });
        this.track(rm(held.directory, { recursive: true, force: true }));
      } else if (held.readyAtMs <= now) {
        this.held.delete(jobId);
        this.finish(held.job, "succeeded", null);
      }
    }
    clearTimeout(this.heldTimer);
    this.heldTimer = undefined;
    if (this.held.size === 0 || this.clock.isFrozen()) return;
    const next = Math.min(...[...this.held.values()].map((held) => held.readyAtMs));
    this.heldTimer = setTimeout(() => this.releaseDueJobs(), Math.min(MAX_TIMER_MS, Math.max(0, next - now)));
  }

  /** Settles the job at once; its callback is delivered in the background (it may retry for seconds). */
  private finish(job: BulkJob, status: "succeeded" | "failed", errorMessage: string | null): void {
    this.store.update(job, { status, errorMessage });
    if (job.callbackUrl) this.track(this.notify(job, job.callbackUrl, status));
  }

  private async notify(job: BulkJob, url: string, status: "succeeded" | "failed"): Promise<void> {
    const payload = {
      event: `bulk_job.${status}`,
      job: jobResource(job),
      sent_at: new Date(this.clock.now()).toISOString(),
    };
    const result = await deliverWebhook(url, payload, this.settings.webhook, (ms) => this.sleep(ms));
    this.deliveries.push({ jobId: job.jobId, url, ...result });
  }

  /** Waits between callback retries; resolves false at once when the sandbox closes. */
  private sleep(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = (completed: boolean) => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve(completed);
      };
      const timer = setTimeout(() => wake(true), ms);
      this.sleepers.add(wake);
    });
  }
}
