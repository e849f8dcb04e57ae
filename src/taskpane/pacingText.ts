import { waitInWords } from "../data/history/exportJobWait";
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

/** The progress strip's lines while requests wait for their turn. */
export interface PacingWords {
  waiting: string;
  doneOfTotal: string;
  why: string;
}

/**
 * What waits, done of total with the time left at the service's pace, and why it waits: the pacing at the
 * limit in force, or a pause the service asked for after refusing a request.
 */
export function pacingWords(progress: PacingProgress): PacingWords {
  const left =
    progress.timeLeftMs > 0
      ? `${waitInWords(progress.timeLeftMs)} left at the service's pace`
      : "the rest going out now";
  const why =
    progress.pausedForMs > 0
      ? `the service's limit was reached, and it asked to wait ${Math.ceil(progress.pausedForMs / 1000)} s`
      : `the service allows ${limitInWords(progress.limit)} (${limitSource(progress.limit)})`;
  return {
    waiting: `Waiting: ${counted(progress.waiting, "request", "requests")} to the service.`,
    doneOfTotal: `${progress.done.toLocaleString("en-US")} of ${counted(progress.total, "request", "requests")} done, ${left}.`,
    why: `Why: ${why}.`,
  };
}
