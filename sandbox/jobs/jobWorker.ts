import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { SandboxClock } from "../clock";
import type { Dataset } from "../data/dataset";
import { dayNumber } from "../data/propertyRecord";
import type { ShapeVariant } from "../variant";
import { EXPORT_ROW_SCHEMAS, exportRowsFor, type ExportRow } from "./exportRows";
import { FILE_EXTENSIONS, writeExportFile } from "./exportWriter";
import { jobResource, type BulkJob, type JobStore } from "./jobStore";
import { deliverWebhook, type WebhookSettings } from "./webhook";

/** Days of one property generated between two yields to the event loop. */
const YIELD_EVERY_DAYS = 7;

export interface WebhookDelivery {
  jobId: string;
  url: string;
  delivered: boolean;
  attempts: number;
}

export interface JobWorkerSettings {
  startDelayMs: number;
  maxRows: number;
  exportDirectory: string | undefined;
  webhook: WebhookSettings;
  /** How the property report writes its percentages (the sandbox's variant). */
  percentScale: ShapeVariant["percentScale"];
}

/**
 * The background worker: picks up submitted jobs after a delay, writes their export file (or
 * fails them with a reason), then notifies the callback URL. Generation yields to the event loop
 * between properties so the API keeps answering and cancellation takes effect.
 */
export class JobWorker {
  /** Jobs waiting for their start delay, by timer. */
  private readonly timers = new Map<NodeJS.Timeout, BulkJob>();
  private readonly running = new Set<Promise<void>>();
  private readonly sleepers = new Set<(completed: boolean) => void>();
  private directory: Promise<string> | undefined;
  private ownsDirectory = false;
  private closed = false;
  /** Every callback delivery, finished or given up, in order. */
  readonly deliveries: WebhookDelivery[] = [];

  constructor(
    private readonly store: JobStore,
    private readonly clock: SandboxClock,
    private readonly dataset: () => Dataset,
    private readonly settings: JobWorkerSettings,
  ) {}

  schedule(job: BulkJob): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(this.run(job));
    }, this.settings.startDelayMs);
    this.timers.set(timer, job);
  }

  /**
   * Starts every waiting job now and resolves when all work is done, callbacks included (tests use
   * a long start delay and this).
   */
  async flush(): Promise<void> {
    for (const [timer, job] of this.timers) {
      clearTimeout(timer);
      this.timers.delete(timer);
      this.track(this.run(job));
    }
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.keys()) clearTimeout(timer);
    this.timers.clear();
    for (const wake of this.sleepers) wake(false);
    await Promise.all([...this.running]);
    if (this.directory && this.ownsDirectory)
      await rm(await this.directory, { recursive: true, force: true });
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

  private async run(job: BulkJob): Promise<void> {
    if (job.status !== "submitted" || this.closed) return;
    const dataset = this.dataset();
    const today = dayNumber(this.clock.today());
    const first = dayNumber(job.startDate);
    const last = dayNumber(job.endDate);
    const rows: ExportRow[] = [];
    for (const propertyId of job.propertyIds) {
      const property = dataset.propertyById.get(propertyId);
      if (!property) continue;
      for (let day = first; day <= last; day++) {
        rows.push(
          ...exportRowsFor(dataset, job.reportType, property, day, today, this.settings.percentScale),
        );
        if (rows.length > this.settings.maxRows) {
          return this.finish(
            job,
            "failed",
            `Export too large: more than ${this.settings.maxRows} rows; narrow the date range or the property list`,
          );
        }
        // Yield every few days of data so the API stays responsive and a cancellation lands quickly.
        if ((day - first) % YIELD_EVERY_DAYS === YIELD_EVERY_DAYS - 1 || day === last) {
          await yieldToEventLoop();
          if (job.status !== "submitted" || this.closed) return;
        }
      }
    }
    try {
      const directory = path.join(await this.exportDirectory(), job.jobId);
      await mkdir(directory, { recursive: true });
      const name = `${job.reportType}_${job.startDate}_${job.endDate}.${FILE_EXTENSIONS[job.outputFormat]}`;
      const filePath = path.join(directory, name);
      await writeExportFile(filePath, job.outputFormat, EXPORT_ROW_SCHEMAS[job.reportType], rows);
      if (job.status !== "submitted") return;
      this.store.update(job, { file: { path: filePath, name } });
      await this.finish(job, "succeeded", null);
    } catch (error) {
      await this.finish(job, "failed", `Export failed: ${(error as Error).message}`);
    }
  }

  private async finish(
    job: BulkJob,
    status: "succeeded" | "failed",
    errorMessage: string | null,
  ): Promise<void> {
    this.store.update(job, { status, errorMessage });
    if (!job.callbackUrl) return;
    const payload = {
      event: `bulk_job.${status}`,
      job: jobResource(job),
      sent_at: new Date(this.clock.now()).toISOString(),
    };
    const result = await deliverWebhook(job.callbackUrl, payload, this.settings.webhook, (ms) =>
      this.sleep(ms),
    );
    this.deliveries.push({ jobId: job.jobId, url: job.callbackUrl, ...result });
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
