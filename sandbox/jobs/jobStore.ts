import { randomUUID } from "node:crypto";
import type { components } from "../../src/api/schema";
import type { SandboxClock } from "../clock";

export type ReportType = components["schemas"]["ReportType"];
export type OutputFormat = components["schemas"]["OutputFormat"];
export type JobStatus = components["schemas"]["JobStatus"];

export interface BulkJob {
  jobId: string;
  /** The API client that created the job; only it may see the job. */
  clientId: string;
  reportType: ReportType;
  outputFormat: OutputFormat;
  propertyIds: number[];
  startDate: string;
  endDate: string;
  status: JobStatus;
  callbackUrl: string | null;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
  /** Creation order; timestamps can tie (and do, with a frozen clock). */
  sequence: number;
  /** Set when the export file has been written. */
  file: { path: string; name: string } | null;
}

export type NewJob = Pick<
  BulkJob,
  "clientId" | "reportType" | "outputFormat" | "propertyIds" | "startDate" | "endDate" | "callbackUrl"
>;

/** The jobs of one sandbox, in memory. */
export class JobStore {
  private readonly jobs = new Map<string, BulkJob>();
  private created = 0;

  constructor(private readonly clock: SandboxClock) {}

  create(fields: NewJob): BulkJob {
    const now = new Date(this.clock.now()).toISOString();
    const job: BulkJob = {
      ...fields,
      jobId: randomUUID(),
      status: "submitted",
      errorMessage: null,
      createdAt: now,
      updatedAt: now,
      file: null,
      sequence: ++this.created,
    };
    this.jobs.set(job.jobId, job);
    return job;
  }

  get(jobId: string): BulkJob | undefined {
    return this.jobs.get(jobId);
  }

  /** A client's jobs, newest first. */
  listFor(clientId: string): BulkJob[] {
    return [...this.jobs.values()]
      .filter((job) => job.clientId === clientId)
      .sort((a, b) => b.sequence - a.sequence);
  }

  update(job: BulkJob, changes: Partial<Pick<BulkJob, "status" | "errorMessage" | "file">>): void {
    Object.assign(job, changes, { updatedAt: new Date(this.clock.now()).toISOString() });
  }
}

/** The batch job object of the contract. */
export function jobResource(job: BulkJob) {
  return {
    job_id: job.jobId,
    report_type: job.reportType,
    output_format: job.outputFormat,
    property_ids: job.propertyIds,
    start_date: job.startDate,
    end_date: job.endDate,
    status: job.status,
    callback_url: job.callbackUrl,
    error_message: job.errorMessage,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  };
}
