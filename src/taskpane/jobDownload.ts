import type { TypedAnswer, TypedSend } from "../api/client";
import { ApiError } from "../api/errors";
import { operationById } from "../api/operations";
import { operationPath } from "../api/operationPath";
import { DownloadBlockedError } from "./downloadBlockedError";

export interface DownloadProgress {
  bytesReceived: number;
  /** From Content-Length, when the download host sends it. */
  totalBytes: number | undefined;
}

export interface DownloadOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
}

/**
 * The data layer's door to the service (DataLayer): the results request is paced, retried and refused after
 * sign-out like every other. Only the signed link goes around it: it is the download host's, not the service's,
 * and the service's limit does not count it.
 */
export interface ServiceDoor {
  readonly apiBase: string;
  through<T>(send: TypedSend<T>, signal?: AbortSignal): Promise<T>;
}

const JOB_RESULTS = operationById("getBulkJobResults");

/** Where the results endpoint sent us. */
type Located =
  { kind: "link"; link: string } | { kind: "followed"; response: Response } | { kind: "unreadable" };

/**
 * `ServiceClient.call` treats any answer that is not 2xx as a failure of the call. For the results endpoint a
 * redirect is the success, so the send reports it to `call` as a plain 200 and hands over what it found.
 */
function accepted(found: Located): TypedAnswer<Located> {
  return { data: found, response: new Response(null, { status: 200 }) };
}

function isRedirect(response: Response): boolean {
  return response.status >= 300 && response.status < 400;
}

function abortedError(signal: AbortSignal | undefined): ApiError | undefined {
  return signal?.aborted ? new ApiError("cancelled", "The download was cancelled.") : undefined;
}

/**
 * Whether a manual redirect is sure to come back opaque: from a page's own fetch (the Fetch standard hides
 * every manual redirect from a browser page). Asking with `redirect: "manual"` there first would cost a second
 * request to the results endpoint, which the service's limit counts.
 */
function hidesManualRedirects(injected: typeof fetch | undefined): boolean {
  return injected === undefined && typeof document !== "undefined";
}

/**
 * Asks the results endpoint (with the bearer token) where the file is. In Node, and wherever the redirect is
 * readable, `redirect: "manual"` shows the signed link and the token never leaves the service's origin. A
 * browser hides a manual redirect (an "opaqueredirect" with no Location), so there the redirect is followed
 * instead, at once in a page (`hidesManualRedirects`): the Fetch standard has browsers drop the Authorization header when a redirect changes origin, so
 * the download host still never receives the token. If the browser then may not read the file (CORS), the
 * link stays unknown to the page.
 */
async function locate(door: ServiceDoor, jobId: string, options: DownloadOptions): Promise<Located> {
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const resultsUrl = `${door.apiBase}${operationPath(JOB_RESULTS, { job_id: jobId })}`;
  const serviceOrigin = new URL(resultsUrl).origin;
  return door.through<Located>(async (context) => {
    const init = { headers: context.headers, credentials: "omit", signal: context.signal } as const;
    const answer = hidesManualRedirects(options.fetch)
      ? undefined
      : await fetchImpl(resultsUrl, { ...init, redirect: "manual" });
    const location = answer?.headers.get("location");
    if (answer && isRedirect(answer) && location) {
      // The redirect's body is never read: release the connection.
      await answer.body?.cancel();
      const link = new URL(location, resultsUrl);
      // A link on the service's own origin is the team relay's: it serves the file only to the key that asked.
      if (link.origin === serviceOrigin)
        return accepted({
          kind: "followed",
          response: await fetchImpl(link, { ...init, redirect: "follow" }),
        });
      return accepted({ kind: "link", link: link.href });
    }
    if (answer && answer.type !== "opaqueredirect") return { error: await answer.text(), response: answer };
    let followed: Response;
    try {
      followed = await fetchImpl(resultsUrl, { ...init, redirect: "follow" });
    } catch (error) {
      if (context.signal?.aborted) throw error;
      return accepted({ kind: "unreadable" });
    }
    // Not redirected: the results endpoint's own answer (an error). Redirected within the origin: the team
    // relay, which serves the file itself.
    if (!followed.redirected && new URL(followed.url || resultsUrl).origin === serviceOrigin)
      return { error: await followed.text(), response: followed };
    return accepted({ kind: "followed", response: followed });
  }, options.signal);
}

/** Fetches the signed link as object storage wants it: no Authorization header, no cookies. */
async function fetchSignedLink(link: string, options: DownloadOptions): Promise<Response> {
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  try {
    return await fetchImpl(link, { credentials: "omit", redirect: "follow", signal: options.signal });
  } catch {
    // A fetch that fails with no answer, right after the service answered, is the download host refusing
    // the browser a cross-origin read (or unreachable): either way the person can fetch the link themselves.
    throw abortedError(options.signal) ?? new DownloadBlockedError(link);
  }
}

function downloadHostError(status: number): ApiError {
  if (status === 403)
    return new ApiError(
      "forbidden",
      "The download link has expired or was refused. Choose Load into sheet again for a fresh link.",
      { status },
    );
  if (status === 404)
    return new ApiError(
      "not_found",
      "The export file is no longer on the download host. Submit the job again.",
      {
        status,
      },
    );
  return new ApiError("server", `The download host answered HTTP ${status}. Try again later.`, { status });
}

/** The body, chunk by chunk, reporting progress; one buffer at the end. */
async function readBody(response: Response, options: DownloadOptions): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  const totalBytes = Number.isFinite(declared) && declared > 0 ? declared : undefined;
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  // A followed redirect's body outlives the request that fetched it: the caller's cancel stops it here.
  const stop = () => void reader.cancel().catch(() => undefined);
  options.signal?.addEventListener("abort", stop, { once: true });
  try {
    return await readChunks(reader, totalBytes, options);
  } finally {
    options.signal?.removeEventListener("abort", stop);
  }
}

async function readChunks(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  totalBytes: number | undefined,
  options: DownloadOptions,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let bytesReceived = 0;
  options.onProgress?.({ bytesReceived, totalBytes });
  for (;;) {
    const { done, value } = await reader.read();
    if (options.signal?.aborted) throw abortedError(options.signal);
    if (done) break;
    chunks.push(value);
    bytesReceived += value.byteLength;
    options.onProgress?.({ bytesReceived, totalBytes });
  }
  const whole = new Uint8Array(bytesReceived);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

/**
 * The signed link of a succeeded job's export file, without reading the file: for hosts where the pane cannot
 * save a file itself and opens the link in the person's browser instead. Undefined when the browser hid it.
 */
export async function locateJobFile(
  door: ServiceDoor,
  jobId: string,
  options: DownloadOptions = {},
): Promise<string | undefined> {
  const located = await locate(door, jobId, options);
  if (located.kind === "link") return located.link;
  if (located.kind === "unreadable") return undefined;
  // The redirect was followed: only its address is wanted, not the file.
  await located.response.body?.cancel();
  return located.response.url || undefined;
}

/**
 * Where the team relay makes a browser link (relay/routes/jobRoutes.ts, BROWSER_LINKS_PATH): beside its
 * contract operations, which it serves under `{serviceUrl}/v1`.
 */
const RELAY_BROWSER_LINKS = "../downloads/links";

/**
 * A link to a succeeded job's file that the person's own browser can open, made by the team relay. The
 * relay's results redirect names a link only the personal key opens, and the browser that
 * `openBrowserWindow` starts sends none of the pane's headers; so the pane asks the relay, with the key, for
 * a one-time link instead (it costs the relay one results request, as the redirect does).
 */
export async function relayBrowserLink(
  door: ServiceDoor,
  jobId: string,
  options: DownloadOptions = {},
): Promise<string> {
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const mintUrl = new URL(RELAY_BROWSER_LINKS, `${door.apiBase}/`).href;
  return door.through<string>(async (context) => {
    const response = await fetchImpl(mintUrl, {
      method: "POST",
      headers: { ...context.headers, "Content-Type": "application/json" },
      body: JSON.stringify({ job_id: jobId }),
      credentials: "omit",
      signal: context.signal,
    });
    if (!response.ok) return { error: await response.text(), response };
    const { link } = (await response.json()) as { link: string };
    return { data: new URL(link, mintUrl).href, response };
  }, options.signal);
}

export interface DownloadedFile {
  bytes: Uint8Array;
  /** The file name the download host gave, if any. */
  fileName: string | undefined;
}

function fileNameOf(response: Response): string | undefined {
  const disposition = response.headers.get("content-disposition") ?? "";
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1];
}

/**
 * Downloads a succeeded job's export file: follows the results redirect without ever sending the bearer token
 * to the download host, with progress from the response stream. When the browser may not read the download
 * host, throws DownloadBlockedError carrying the link (when known) for "Open download link".
 */
export async function downloadJobResults(
  door: ServiceDoor,
  jobId: string,
  options: DownloadOptions = {},
): Promise<DownloadedFile> {
  const located = await locate(door, jobId, options);
  if (located.kind === "unreadable") throw new DownloadBlockedError(undefined);
  const link = located.kind === "link" ? located.link : located.response.url;
  const response = located.kind === "link" ? await fetchSignedLink(located.link, options) : located.response;
  if (!response.ok) throw downloadHostError(response.status);
  try {
    return { bytes: await readBody(response, options), fileName: fileNameOf(response) };
  } catch {
    throw abortedError(options.signal) ?? new DownloadBlockedError(link);
  }
}
