import { ApiError } from "../api/errors";
import { FormatError } from "../formats/parsedTable";
import { DownloadBlockedError } from "./downloadBlockedError";
import { PaneInputError } from "./paneInputError";

function seconds(value: number): string {
  const whole = Math.max(1, Math.ceil(value));
  return whole === 1 ? "1 second" : `${whole} seconds`;
}

/** What to do next after a failure of the service, by kind; the ApiError's own text says what happened. */
function nextStep(error: ApiError): string {
  switch (error.kind) {
    case "rate_limited": {
      const wait = error.details.retryAfterSeconds;
      return wait === undefined
        ? "Wait a few minutes, then try again."
        : `Wait ${seconds(wait)}, then try again.`;
    }
    case "quota_exceeded": {
      const { quotaUsage, quotaLimit } = error.details;
      const used =
        quotaLimit === undefined ? "" : ` (${quotaUsage ?? quotaLimit} of ${quotaLimit} properties used)`;
      return `Bulk exports stop until the quota is raised or renewed${used}: ask your account manager.`;
    }
    case "invalid_input":
      return "Correct it and try again.";
    case "not_found":
      return "It may have been removed: refresh the list and try again.";
    case "forbidden":
      return "Choose another account, or ask your administrator for access.";
    case "timeout":
      return "Try again in a moment.";
    case "quota_guard":
    case "unauthorized":
    case "offline":
    case "server":
    case "unexpected_answer":
    case "cancelled":
      return "";
  }
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?:]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** An error Excel raised (OfficeExtension.Error carries a code). */
function excelErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && code !== "" ? code : undefined;
}

/**
 * A failure in words a person can act on: what happened and what to do next. Never includes a secret: the
 * texts are ours or the service's error messages, which never echo credentials.
 */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const step = nextStep(error);
    return step === "" ? sentence(error.message) : `${sentence(error.message)} ${step}`;
  }
  if (error instanceof FormatError)
    return `${sentence(error.message)} Check that it is the export file of this job, unchanged.`;
  if (error instanceof DownloadBlockedError || error instanceof PaneInputError) return error.message;
  if (error instanceof DOMException && error.name === "AbortError") return "Cancelled.";
  const code = excelErrorCode(error);
  if (code !== undefined) {
    const what =
      error instanceof Error && error.message ? sentence(error.message) : "Excel refused the change.";
    return `${what} Check that the workbook is not being edited (press Esc in Excel), then try again.`;
  }
  if (error instanceof Error && error.message) return sentence(error.message);
  return "Something went wrong. Try again.";
}
