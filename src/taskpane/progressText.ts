import { waitInWords } from "../data/history/exportJobWait";
import type { WorkUnderWay } from "../data/dataLayer";
import type { GateLimit, PacingProgress } from "../data/requestGate";

const MINUTE_MS = 60_000;

const counted = (count: number, one: string, many: string) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

/** "100 requests per 5 minutes": a limit as the vendor states it, from the figures in force. */
export function limitInWords(limit: Pick<GateLimit, "limit" | "windowMs">): string {
  const window =
    limit.windowMs === MINUTE_MS
      ? "minute"
      : limit.windowMs % MINUTE_MS === 0
        ? counted(limit.windowMs / MINUTE_MS, "minute", "minutes")
        : counted(Math.round(limit.windowMs / 1000), "second", "seconds");
  return `${counted(limit.limit, "request", "requests")} per ${window}`;
}

/** Where the limit in force came from, in the pane's words. */
export function limitSource(limit: Pick<GateLimit, "learned">): string {
  return limit.learned ? "the limit it announced" : "its documented limit";
}

/** The progress strip's lines while requests or export jobs are waited for; absent lines are not shown. */
export interface ProgressWords {
  waiting: string;
  /** The requests' done of total and time left, while some wait. */
  doneOfTotal?: string;
  /** The export jobs' time left, while some run. */
  jobs?: string;
  why: string;
}

/** The requests' why: the pacing at the limit in force, or a pause the service asked for after refusing one. */
function whyRequestsWait(requests: PacingProgress): string {
  if (requests.pausedForMs > 0)
    return `the service's limit was reached, and it asked to wait ${Math.ceil(requests.pausedForMs / 1000)} s`;
  return `the service allows ${limitInWords(requests.limit)} (${limitSource(requests.limit)})`;
}

/** What waits, done of total with the time left at the service's pace, the export jobs' time left, and why. */
export function progressWords({ requests, exportJobs }: WorkUnderWay): ProgressWords {
  const waiting = [
    ...(requests.waiting > 0 ? [`${counted(requests.waiting, "request", "requests")} to the service`] : []),
    ...(exportJobs.running > 0 ? [counted(exportJobs.running, "export job", "export jobs")] : []),
  ];
  const left =
    requests.timeLeftMs > 0
      ? `${waitInWords(requests.timeLeftMs)} left at the service's pace`
      : "the rest going out now";
  const jobs = exportJobs.running === 1 ? "Export job" : "Export jobs";
  return {
    waiting: `Waiting: ${waiting.join(" and ")}.`,
    doneOfTotal:
      requests.waiting > 0
        ? `${requests.done.toLocaleString("en-US")} of ${counted(requests.total, "request", "requests")} done, ${left}.`
        : undefined,
    jobs:
      exportJobs.running === 0
        ? undefined
        : exportJobs.timeLeftMs > 0
          ? `${jobs}: ${waitInWords(exportJobs.timeLeftMs)} left, the service's usual time for the size.`
          : `${jobs}: being submitted.`,
    why: `Why: ${
      requests.waiting > 0
        ? whyRequestsWait(requests)
        : "RENT.HISTORY's days come from export jobs, which the service builds in minutes"
    }.`,
  };
}
