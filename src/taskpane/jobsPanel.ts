import type { Session, SignedIn } from "../session/session";
import { DownloadBlockedError } from "./downloadBlockedError";
import { openInBrowser, opensBrowserWindows, saveBytes } from "./browserWindow";
import { element, fieldText, showProgress, whileBusy, type StatusLine } from "./dom";
import type { DownloadProgress } from "./jobDownload";
import { TooManyRowsForSheetError, type LoadResult, type PreparedExport } from "./jobLoader";
import { jobSheetName, type BatchJob, type JobsController } from "./jobsController";
import type { JobForm, OutputFormat, ReportType } from "./jobRequest";

const STATUS_WORDS: Readonly<Record<BatchJob["status"], string>> = {
  submitted: "Running",
  succeeded: "Ready",
  failed: "Failed",
  cancelled: "Cancelled",
};

const REPORT_WORDS: Readonly<Record<BatchJob["report_type"], string>> = {
  property: "Properties",
  units: "Units",
  floorplans: "Floor plans",
};

const DAY_MS = 86_400_000;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function readJobForm(): JobForm {
  return {
    reportType: element<HTMLSelectElement>("job-report-type").value as ReportType,
    outputFormat: element<HTMLSelectElement>("job-format").value as OutputFormat,
    startDate: element<HTMLInputElement>("job-start-date").value,
    endDate: element<HTMLInputElement>("job-end-date").value,
    propertyIds: fieldText("job-property-ids"),
    callbackUrl: fieldText("job-callback-url"),
  };
}

function describeJob(job: BatchJob): string {
  const count = job.property_ids.length;
  return `${REPORT_WORDS[job.report_type]}, ${job.output_format}, ${job.start_date} to ${job.end_date}, ${count} ${count === 1 ? "property" : "properties"}`;
}

function button(id: string, text: string, onClick: (self: HTMLButtonElement) => void): HTMLButtonElement {
  // A Fluent button like the page's own; it has the native button's `disabled` and `type`.
  const created = document.createElement("fluent-button") as HTMLButtonElement;
  created.setAttribute("type", "button");
  created.id = id;
  created.textContent = text;
  created.addEventListener("click", () => onClick(created));
  return created;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** What a finished load says: the sheet, or the first and last of the sheets a long file was split across. */
function describeLoaded(loaded: LoadResult, source?: string): string {
  const from = source === undefined ? "" : ` from ${source}`;
  const first = loaded.sheetNames[0] ?? loaded.sheetName;
  const last = loaded.sheetNames.at(-1) ?? first;
  return loaded.sheetNames.length > 1
    ? `Wrote ${loaded.rowsWritten} rows${from} across ${loaded.sheetNames.length} sheets, "${first}" to "${last}", each with the header row.`
    : `Wrote ${loaded.rowsWritten} rows${from} to the sheet "${first}".`;
}

/** The bulk export form, the list of jobs with polling, and loading or saving their files. */
export function wireJobsPanel(session: Session, controller: JobsController, status: StatusLine): void {
  const list = element<HTMLUListElement>("jobs-list");
  const jobs = new Map<string, BatchJob>();
  const watches = new Map<string, AbortController>();
  let transfer: AbortController | undefined;
  let fallbackJob: BatchJob | undefined;
  let fallbackLink: string | undefined;

  const yesterday = Date.now() - DAY_MS;
  element<HTMLInputElement>("job-end-date").value = isoDay(yesterday);
  element<HTMLInputElement>("job-start-date").value = isoDay(yesterday - 30 * DAY_MS);

  const progressArea = element("job-progress-area");
  const progressBar = element<HTMLProgressElement>("job-progress");
  const progressLabel = element("job-progress-label");
  const onDownload = ({ bytesReceived, totalBytes }: DownloadProgress) => {
    progressLabel.textContent =
      totalBytes === undefined
        ? `Downloading: ${megabytes(bytesReceived)}`
        : `Downloading: ${megabytes(bytesReceived)} of ${megabytes(totalBytes)}`;
    showProgress(progressBar, bytesReceived, totalBytes);
  };
  const onWrite = ({ rowsWritten, totalRows }: { rowsWritten: number; totalRows: number }) => {
    progressLabel.textContent = `Writing rows: ${rowsWritten} of ${totalRows}`;
    showProgress(progressBar, rowsWritten, totalRows);
  };

  const showFallback = (job: BatchJob, blocked: DownloadBlockedError) => {
    fallbackJob = job;
    fallbackLink = blocked.link;
    element("download-fallback").hidden = false;
    element("download-fallback-message").textContent = blocked.message;
    element("open-download-link-button").hidden = blocked.link === undefined;
    status.show(`The export of job ${job.job_id.slice(0, 8)} is ready; see below how to get it.`);
  };

  const oversizeOffer = element("oversize-offer");
  const splitButton = element<HTMLButtonElement>("oversize-split-button");
  let tooLong: PreparedExport | undefined;
  /** The job the too-long file came from (none for a file the person loaded from disk). */
  let tooLongJob: BatchJob | undefined;

  /** A file longer than a worksheet: nothing is written until the person picks "Split" or "Save file". */
  const offerSplit = (prepared: PreparedExport, job: BatchJob | undefined) => {
    tooLong = prepared;
    tooLongJob = job;
    element("oversize-message").textContent = new TooManyRowsForSheetError(prepared).message;
    splitButton.textContent = `Split across ${prepared.sheetsNeeded} sheets`;
    oversizeOffer.hidden = false;
    status.show(`${prepared.fileName} is too long for one sheet; choose below how to get it.`);
  };

  /** Writes a read file to the workbook, unless it is too long for a sheet and splitting was not chosen. */
  const writeOrOffer = async (
    prepared: PreparedExport,
    job: BatchJob | undefined,
    signal?: AbortSignal,
    source?: string,
  ) => {
    if (prepared.sheetsNeeded > 1) {
      offerSplit(prepared, job);
      return;
    }
    const loaded = await controller.write(prepared, { signal, onWriteProgress: onWrite });
    status.show(describeLoaded(loaded, source));
  };

  /** Runs a download or write of a job's file with the progress bar and, for a refused read, the fallback. */
  const transferring = async (job: BatchJob | undefined, work: (signal: AbortSignal) => Promise<void>) => {
    transfer = new AbortController();
    progressArea.hidden = false;
    showProgress(progressBar, 0, undefined);
    element("download-fallback").hidden = true;
    oversizeOffer.hidden = true;
    try {
      await work(transfer.signal);
    } catch (error) {
      if (job && error instanceof DownloadBlockedError) showFallback(job, error);
      else throw error;
    } finally {
      progressArea.hidden = true;
    }
  };

  const load = (job: BatchJob, self: HTMLButtonElement) =>
    whileBusy(self, status, () =>
      transferring(job, async (signal) => {
        const prepared = await controller.prepare(job, { signal, onDownloadProgress: onDownload });
        await writeOrOffer(prepared, job, signal);
      }),
    );

  /** Desktop Excel saves no file from the pane: the person's browser opens the file's link and saves it. */
  const saveInBrowser = async (job: BatchJob, signal?: AbortSignal) => {
    const link = await controller.fileLink(job, signal);
    if (!link) throw new DownloadBlockedError(undefined);
    openInBrowser(link);
    status.show(
      "Your browser opened the export file's link to save it. Choose Load from file to put it in a sheet.",
    );
  };

  const save = (job: BatchJob, self: HTMLButtonElement) =>
    whileBusy(self, status, () =>
      transferring(job, async (signal) => {
        if (opensBrowserWindows()) {
          await saveInBrowser(job, signal);
          return;
        }
        const file = await controller.download(job, { signal, onProgress: onDownload });
        const fileName = file.fileName ?? `${jobSheetName(job)}.${job.output_format}`;
        saveBytes(new Uint8Array(file.bytes), fileName);
        status.show(`Saved ${fileName}.`);
      }),
    );

  splitButton.addEventListener("click", () => {
    const prepared = tooLong;
    if (!prepared) return;
    void whileBusy(splitButton, status, () =>
      transferring(undefined, async (signal) => {
        try {
          const loaded = await controller.write(prepared, { split: true, signal, onWriteProgress: onWrite });
          tooLong = undefined;
          status.show(describeLoaded(loaded));
        } catch (error) {
          // Nothing stays written; the choice stays open for another try or "Save file".
          oversizeOffer.hidden = false;
          throw error;
        }
      }),
    );
  });

  const oversizeSave = element<HTMLButtonElement>("oversize-save-button");
  oversizeSave.addEventListener("click", () => {
    const prepared = tooLong;
    if (!prepared) return;
    void whileBusy(oversizeSave, status, async () => {
      if (opensBrowserWindows()) {
        // A file loaded from disk is saved already; a job's file is saved by the browser from its link.
        if (tooLongJob) await saveInBrowser(tooLongJob);
        else status.show(`${prepared.fileName} is the file you loaded; it stays where you saved it.`);
      } else {
        // The bytes were downloaded for the load already: saving them costs no request.
        saveBytes(new Uint8Array(prepared.bytes), prepared.fileName);
        status.show(`Saved ${prepared.fileName}.`);
      }
      oversizeOffer.hidden = true;
      tooLong = undefined;
    });
  });

  const itemFor = (job: BatchJob): HTMLLIElement => {
    const item = document.createElement("li");
    item.id = `job-${job.job_id}`;
    item.dataset.status = job.status;
    const title = document.createElement("span");
    title.id = `job-title-${job.job_id}`;
    title.className = "job-title";
    title.textContent = describeJob(job);
    const state = document.createElement("span");
    state.className = `job-status status-${job.status}`;
    state.textContent = STATUS_WORDS[job.status];
    item.append(title, state);
    if (job.status === "failed" && job.error_message) {
      const reason = document.createElement("p");
      reason.className = "job-error";
      reason.textContent = job.error_message;
      item.append(reason);
    }
    const actions = document.createElement("div");
    actions.className = "actions";
    if (job.status === "succeeded") {
      actions.append(
        button(`job-load-${job.job_id}`, "Load into sheet", (self) => void load(job, self)),
        button(`job-save-${job.job_id}`, "Save file", (self) => void save(job, self)),
      );
    }
    if (job.status === "submitted") {
      actions.append(
        button(`job-cancel-${job.job_id}`, "Cancel job", (self) => {
          void whileBusy(self, status, async () => {
            const cancelled = await controller.cancel(job.job_id);
            watches.get(job.job_id)?.abort();
            update(cancelled);
            status.show("The export job was cancelled.");
          });
        }),
      );
    }
    // Each button's name says what it does; the job it acts on is read out as its description.
    for (const action of actions.querySelectorAll("button"))
      action.setAttribute("aria-describedby", title.id);
    item.append(actions);
    return item;
  };

  const render = () => list.replaceChildren(...[...jobs.values()].map(itemFor));

  /** Redraws one job in place (newest first when new), keeping keyboard focus on the same button if it remains. */
  const update = (job: BatchJob) => {
    jobs.set(job.job_id, job);
    const fresh = itemFor(job);
    const shown = document.getElementById(fresh.id);
    if (!shown) {
      list.prepend(fresh);
      return;
    }
    const focusedId = shown.contains(document.activeElement) ? document.activeElement?.id : undefined;
    shown.replaceWith(fresh);
    if (focusedId) document.getElementById(focusedId)?.focus();
  };

  const watch = (job: BatchJob) => {
    if (job.status !== "submitted" || watches.has(job.job_id)) return;
    const stop = new AbortController();
    watches.set(job.job_id, stop);
    controller
      .watch(job, { signal: stop.signal, onUpdate: update })
      .then(
        (finished) => {
          if (finished.status === "succeeded")
            status.show(`Export ${describeJob(finished)} is ready to load.`);
          if (finished.status === "failed") status.show(`Export ${describeJob(finished)} failed.`);
        },
        (error: unknown) => {
          if (!stop.signal.aborted) status.error(error);
        },
      )
      .finally(() => watches.delete(job.job_id));
  };

  const reload = async () => {
    const listed = await controller.list();
    jobs.clear();
    for (const job of listed) jobs.set(job.job_id, job);
    render();
    listed.forEach(watch);
  };

  // The list is fetched when asked for, never on sign-in or reload: the service allows ~100 requests per 5
  // minutes, and opening the pane should cost none of them.
  session.onChange((state: SignedIn | undefined) => {
    element("jobs-section").hidden = state === undefined;
    if (state) return;
    for (const stop of watches.values()) stop.abort();
    transfer?.abort();
    tooLong = undefined;
    oversizeOffer.hidden = true;
    jobs.clear();
    render();
  });

  element<HTMLButtonElement>("jobs-reload-button").addEventListener("click", () => {
    void whileBusy(element("jobs-reload-button"), status, reload);
  });

  element<HTMLButtonElement>("job-use-selection-button").addEventListener("click", () => {
    void whileBusy(element("job-use-selection-button"), status, async () => {
      const ids = await controller.propertyIdsFromSelection();
      element<HTMLTextAreaElement>("job-property-ids").value = ids.join(", ");
      status.show(
        ids.length === 0
          ? "The selection holds no property ids."
          : `Took ${ids.length} property ids from the selection.`,
      );
    });
  });

  element<HTMLFormElement>("job-form").addEventListener("submit", (event) => {
    event.preventDefault();
    void whileBusy(element("job-submit-button"), status, async () => {
      const job = await controller.submit(readJobForm());
      update(job);
      watch(job);
      status.show("Export submitted. The list shows when it is ready.");
    });
  });

  element<HTMLButtonElement>("job-transfer-cancel-button").addEventListener("click", () => transfer?.abort());

  element<HTMLButtonElement>("open-download-link-button").addEventListener("click", () => {
    if (fallbackLink) openInBrowser(fallbackLink);
  });

  const fileInput = element<HTMLInputElement>("load-from-file-input");
  fileInput.addEventListener("change", () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    status.show(`Loading ${file.name}…`);
    oversizeOffer.hidden = true;
    progressArea.hidden = false;
    file
      .arrayBuffer()
      .then((buffer) => controller.prepareFile(new Uint8Array(buffer), file.name, fallbackJob))
      .then(async (prepared) => {
        await writeOrOffer(prepared, undefined, undefined, file.name);
        element("download-fallback").hidden = true;
      })
      .catch((error: unknown) => status.error(error))
      .finally(() => {
        progressArea.hidden = true;
        fileInput.value = "";
      });
  });
}
