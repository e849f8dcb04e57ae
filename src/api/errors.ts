import { retryAfterSeconds } from "./rateLimitHeaders";

/**
 * Every failure the service layer can report, as a value with a kind. The functions layer maps kinds to
 * Excel cell errors and the task pane to plain-words messages, each in one place.
 */
export type ApiErrorKind =
  | "invalid_input"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "rate_limited"
  | "quota_exceeded"
  /** Held by the add-in before spending: the pull would take too much of the bulk export quota (src/data/quotaGuard). */
  | "quota_guard"
  | "server"
  /** A 2xx answer in a form the add-in cannot read (src/api/readers). */
  | "unexpected_answer"
  | "offline"
  | "timeout"
  | "cancelled";

export interface ApiErrorDetails {
  status?: number;
  /** The service's own `message` (or `error`) text, when it sent one. */
  serviceMessage?: string;
  /** Seconds the service asked us to wait (429). */
  retryAfterSeconds?: number;
  /** Epoch ms until which requests are refused at once, after a 429 whose wait is longer than a caller's bound. */
  rateLimitedUntilMs?: number;
  quotaLimit?: number;
  quotaUsage?: number;
}

export class ApiError extends Error {
  override readonly name = "ApiError";

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly details: ApiErrorDetails = {},
  ) {
    super(message);
  }
}

interface ErrorPayload {
  error?: unknown;
  message?: unknown;
  errors?: unknown;
  quota_limit?: unknown;
  quota_usage?: unknown;
}

function textOf(payload: ErrorPayload | undefined, raw: string): string | undefined {
  if (payload) {
    const parts = [payload.error, payload.message].filter(
      (p): p is string => typeof p === "string" && p !== "",
    );
    if (Array.isArray(payload.errors))
      parts.push(...payload.errors.filter((e): e is string => typeof e === "string"));
    if (parts.length > 0) return [...new Set(parts)].join(": ");
  }
  const trimmed = raw.trim();
  return trimmed === "" ? undefined : trimmed.slice(0, 300);
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** Builds the ApiError for a non-2xx response, keeping the service's own words. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const raw = await response.text().catch(() => "");
  return errorFromStatus(response.status, response.headers, raw);
}

/** The ApiError for a non-2xx status whose body has already been read as text. */
export function errorFromStatus(status: number, headers: Headers, raw: string): ApiError {
  let payload: ErrorPayload | undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === "object") payload = parsed as ErrorPayload;
  } catch {
    payload = undefined;
  }
  const serviceMessage = textOf(payload, raw);
  const details: ApiErrorDetails = { status, serviceMessage };
  const said = serviceMessage ? ` (the service said: ${serviceMessage})` : "";

  if (status === 429) {
    details.retryAfterSeconds = retryAfterSeconds(headers);
    const quotaLimit = numberOrUndefined(payload?.quota_limit);
    if (quotaLimit !== undefined) {
      details.quotaLimit = quotaLimit;
      details.quotaUsage = numberOrUndefined(payload?.quota_usage);
      return new ApiError("quota_exceeded", `The account's bulk export quota is used up${said}.`, details);
    }
    return new ApiError("rate_limited", `The service's request limit was reached${said}.`, details);
  }
  if (status === 400 || status === 422) {
    return new ApiError(
      "invalid_input",
      serviceMessage ?? "The service rejected the request as invalid.",
      details,
    );
  }
  if (status === 401) {
    return new ApiError(
      "unauthorized",
      `The service did not accept the sign-in${said}. Sign in again.`,
      details,
    );
  }
  if (status === 403) {
    return new ApiError(
      "forbidden",
      `Not included in your plan or not permitted for this account${said}.`,
      details,
    );
  }
  if (status === 404) return new ApiError("not_found", serviceMessage ?? "Not found.", details);
  if (status === 409) {
    // The thing exists but is not in a state that has it yet (e.g. results of a job still running).
    return new ApiError("not_found", `Not available yet${said}.`, details);
  }
  if (status >= 500) {
    // Only words the server wrote as a JSON message (a team relay's "its own credentials were refused"), never
    // an HTML error page, go into the cell.
    const explained = payload && serviceMessage ? ` (${serviceMessage})` : "";
    return new ApiError(
      "server",
      `The service had a problem (HTTP ${status})${explained}. Try again later.`,
      details,
    );
  }
  return new ApiError("server", `Unexpected answer from the service (HTTP ${status})${said}.`, details);
}

/** Turns a fetch failure (no response at all) into an ApiError. */
export function errorFromFetchFailure(error: unknown, signal?: AbortSignal): ApiError {
  if (error instanceof ApiError) return error;
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof ApiError) return reason;
    if (reason instanceof DOMException && reason.name === "TimeoutError") {
      return new ApiError("timeout", "The service did not answer in time.");
    }
    return new ApiError("cancelled", "The request was cancelled.");
  }
  return new ApiError("offline", "The service cannot be reached. Check the connection and the service URL.");
}
