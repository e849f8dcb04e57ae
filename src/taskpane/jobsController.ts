import { ApiError } from "../api/errors";
import { CANCEL_JOB, JOB, JOBS, SUBMIT_JOB } from "../data/endpoints";
import { resolveProperty, type NameSite } from "../functions/args/nameResolver";
import { ArgumentError } from "../functions/cellErrors";
import type { components } from "../api/schema";
import { EXCEL_MAX_ROWS } from "../excel/sheetLimits";
import type { WriteProgress } from "../excel/tableWriter";
import type { Session } from "../session/session";
import type { ExcelRunner } from "./excelRunner";
import {
  downloadJobResults,
  locateJobFile,
  relayBrowserLink,
  type DownloadedFile,
  type DownloadOptions,
} from "./jobDownload";
import {
  formatOfPickedFile,
  prepareExportFile,
  writePreparedExport,
  type LoadResult,
  type PreparedExport,
} from "./jobLoader";
import { pollUntil, type PollOptions } from "./jobPoller";
import { jobRequestOf, propertyIdsFromCells, type JobForm } from "./jobRequest";
import { PaneInputError } from "./paneInputError";

/** A bulk export job as the service describes it. */
export type BatchJob = components["schemas"]["BatchJob"];

const REPORT_LABEL: Readonly<Record<BatchJob["report_type"], string>> = {
  property: "Properties",
  units: "Units",
  floorplans: "Floor plans",
};

/**
 * A job's sheet as a person would name it: what it holds and the days it covers ("Properties 2026-11-28",
 * "Units 2026-01-01 to 03-31", "Floor plans 2025-11 to 2026-03": within Excel's 31 characters), never the job's
 * id. A second export of the same days is "Properties 2026-11-28 (2)" (the sheet writers keep names unique).
 */
export function jobSheetName(job: Pick<BatchJob, "report_type" | "start_date" | "end_date">): string {
  const label = REPORT_LABEL[job.report_type];
  const { start_date: start, end_date: end } = job;
  if (start === end) return `${label} ${start}`;
  if (start.slice(0, 4) === end.slice(0, 4)) return `${label} ${start} to ${end.slice(5)}`;
  return `${label} ${start.slice(0, 7)} to ${end.slice(0, 7)}`;
}

export function isFinished(job: Pick<BatchJob, "status">): boolean {
  return job.status !== "submitted";
}

export interface LoadJobOptions {
  onDownloadProgress?: DownloadOptions["onProgress"];
  onWriteProgress?: (progress: WriteProgress) => void;
  signal?: AbortSignal;
  /** Spread a file longer than a worksheet over several sheets; without it such a file is refused unwritten. */
  split?: boolean;
}

export interface JobsControllerOptions {
  /** Rows a worksheet holds, header included: Excel's 1,048,576 unless a test wants a small grid. */
  maxSheetRows?: number;
}

/** A property typed by name in the form: its messages name the box, and the id to type instead. */
const EXPORT_SITE: NameSite = { argument: "Properties", formula: String };

/** A name that matches no property or several: the person's to fix, said in the resolver's words. */
const isNameProblem = (error: unknown): error is Error =>
  error instanceof ArgumentError || (error instanceof ApiError && error.kind === "not_found");

/** How many jobs the list shows: the newest page. */
const LISTED_JOBS = 50;

/**
 * Bulk export jobs: submit, list, watch until finished (polling with backoff), cancel, and load a succeeded
 * job's file into a new sheet (or a file the person downloaded themselves).
 */
export class JobsController {
  constructor(
    private readonly session: Session,
    private readonly runExcel: ExcelRunner,
    private readonly fetchImpl?: typeof fetch,
    private readonly options: JobsControllerOptions = {},
  ) {}

  async submit(form: JobForm, signal?: AbortSignal): Promise<BatchJob> {
    const state = this.session.requireSignedIn();
    const { data, accountId } = state;
    const call = { accountId, signal: signal ?? new AbortController().signal };
    const body = await jobRequestOf(form, (name) =>
      resolveProperty(name, { data, accountId, call }, EXPORT_SITE).catch((error: unknown) => {
        throw isNameProblem(error) ? new PaneInputError(error.message) : error;
      }),
    );
    return await data.send(SUBMIT_JOB, body, signal);
  }

  /** The caller's newest jobs, through the data layer's request gate like every other request. */
  async list(signal?: AbortSignal): Promise<BatchJob[]> {
    const answer = await this.session
      .requireSignedIn()
      .data.send(JOBS, { page: 1, per_page: LISTED_JOBS }, signal);
    return answer.jobs;
  }

  /**
   * Looks at the job until it leaves "submitted", waiting longer between looks the longer it takes. `job` is
   * the state in hand (the submission's or the list's answer): the first request waits the first delay.
   */
  watch(job: BatchJob, options: Omit<PollOptions<BatchJob>, "seen"> = {}): Promise<BatchJob> {
    const { data } = this.session.requireSignedIn();
    return pollUntil((signal) => data.send(JOB, job.job_id, signal), isFinished, { ...options, seen: job });
  }

  cancel(jobId: string, signal?: AbortSignal): Promise<BatchJob> {
    return this.session.requireSignedIn().data.send(CANCEL_JOB, jobId, signal);
  }

  /** Property ids from the selected cells, for the job form. */
  propertyIdsFromSelection(): Promise<number[]> {
    return this.runExcel(async (context) => {
      const selection = context.workbook.getSelectedRange();
      selection.load("values");
      await context.sync();
      return propertyIdsFromCells(selection.values);
    });
  }

  /** The job's export file, downloaded (for "Save file" and "Load into sheet"). */
  download(job: BatchJob, options: Omit<DownloadOptions, "fetch"> = {}): Promise<DownloadedFile> {
    return downloadJobResults(this.session.requireSignedIn().data, job.job_id, {
      ...options,
      fetch: this.fetchImpl,
    });
  }

  /**
   * A link the person's browser opens to save the job's file ("Save file" in desktop Excel): the service's
   * signed link, or through the team relay a one-time link of the relay's (the browser has no key).
   */
  fileLink(job: BatchJob, signal?: AbortSignal): Promise<string | undefined> {
    const { data, viaRelay } = this.session.requireSignedIn();
    const options = { signal, fetch: this.fetchImpl };
    return viaRelay ? relayBrowserLink(data, job.job_id, options) : locateJobFile(data, job.job_id, options);
  }

  /** Downloads and reads a job's file without writing it, so the pane can first say how many sheets it needs. */
  async prepare(
    job: BatchJob,
    options: Pick<LoadJobOptions, "signal" | "onDownloadProgress"> = {},
  ): Promise<PreparedExport> {
    const file = await this.download(job, { signal: options.signal, onProgress: options.onDownloadProgress });
    return await prepareExportFile(
      file.bytes,
      job.output_format,
      {
        sheetName: jobSheetName(job),
        fileName: file.fileName ?? `${jobSheetName(job)}.${job.output_format}`,
      },
      this.maxSheetRows,
    );
  }

  /** Reads a file the person saved from the download link ("Load from file"), as `prepare` does. */
  async prepareFile(bytes: Uint8Array, fileName: string, job: BatchJob | undefined): Promise<PreparedExport> {
    const format = formatOfPickedFile(fileName, job?.output_format);
    const sheetName = job ? jobSheetName(job) : fileName.replace(/\.[^.]+$/, "");
    return await prepareExportFile(bytes, format, { sheetName, fileName }, this.maxSheetRows);
  }

  /** Writes a prepared file to new sheets; one longer than a worksheet is refused unless `split` is set. */
  write(
    prepared: PreparedExport,
    options: Omit<LoadJobOptions, "onDownloadProgress"> = {},
  ): Promise<LoadResult> {
    return writePreparedExport(this.runExcel, prepared, {
      split: options.split,
      onProgress: options.onWriteProgress,
      signal: options.signal,
    });
  }

  async load(job: BatchJob, options: LoadJobOptions = {}): Promise<LoadResult> {
    return await this.write(await this.prepare(job, options), options);
  }

  /** "Load from file": a file the person saved from the download link, loaded the same way. */
  async loadFile(
    bytes: Uint8Array,
    fileName: string,
    job: BatchJob | undefined,
    options: Omit<LoadJobOptions, "onDownloadProgress"> = {},
  ): Promise<LoadResult> {
    return await this.write(await this.prepareFile(bytes, fileName, job), options);
  }

  private get maxSheetRows(): number {
    return this.options.maxSheetRows ?? EXCEL_MAX_ROWS;
  }
}
