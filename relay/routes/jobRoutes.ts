import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, preHandlerHookHandler } from "fastify";
import {
  RequestRefusal,
  matchOperation,
  operationById,
  type OperationRequest,
} from "../../src/api/operations";
import { operationPath } from "../../src/api/operationPath";
import { parameterDefault, parameterMaximum } from "../../src/api/requestFacts";
import type { DownloadLinks, JobOwners, UserRecord } from "../store/relayStore";
import type { Upstream, UpstreamAnswer } from "../upstream/upstream";
import { ApiError } from "../../src/api/errors";
import { fetchDownload } from "../upstream/upstreamFetch";
import { ownerIdOf } from "../users/personalKeys";
import { pageOf, sendApiError, sendRelayError, sendUpstream } from "./replies";

/**
 * How long a relay download link stays valid. The pane fetches it the moment the results redirect names it,
 * so two minutes is plenty; the service's own signed URL (valid 7 days) never leaves the relay.
 */
export const DOWNLOAD_LINK_TTL_MS = 2 * 60_000;

/**
 * How long a browser link stays valid: the pane opens the person's browser at it as soon as it is made, and
 * the browser asks for it within seconds. It opens once, so the address seen in a browser's history or a
 * proxy's log opens nothing afterwards.
 */
export const BROWSER_LINK_TTL_MS = 60_000;

const LIST_JOBS = operationById("listBulkJobs");
/** The service pages job lists by at most this many (listBulkJobs' per_page maximum). */
const UPSTREAM_PAGE = parameterMaximum(LIST_JOBS.operationId, "per_page");
/** The relay reads at most this many pages of the team's jobs to page one person's list. */
const MAX_UPSTREAM_PAGES = 10;
/** Tries at recording who submitted a job before the relay gives the job up. */
const OWNER_RECORD_ATTEMPTS = 3;

export interface JobRouteParts {
  upstream: Upstream;
  owners: JobOwners;
  downloads: DownloadLinks;
  /** The origins of the service's signed download URLs the relay fetches files from (`--download-origin`). */
  downloadOrigins: readonly string[];
}

type Json = Record<string, unknown>;

function parse(body: Buffer): Json | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Json)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A download link is stored under its owner's id: another person's key cannot find it. */
const linkKey = (user: UserRecord, id: string) => `${encodeURIComponent(ownerIdOf(user))}/${id}`;

/**
 * A job id as owners are recorded under it: the service's ids are UUIDs, which it reads in any case, so
 * `ABC...` and `abc...` name one job and must meet one owner.
 */
const canonicalJobId = (jobId: string): string => jobId.toLowerCase();

/** A browser link is stored apart from key links: a name (escaped) never holds ":", a key link always "/". */
const browserLinkKey = (id: string) => `browser:${id}`;

/** 128 random bits: a link's id cannot be guessed. */
const newLinkId = () => randomBytes(16).toString("base64url");

/** What an id in a download path may look like; anything else is looked up nowhere. */
const LINK_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether the person may act on a job: its submitter, or an admin for a job whose submitter is unknown. */
function mayUseJob(user: UserRecord, owner: string | undefined): boolean {
  return owner === undefined ? user.admin : owner === ownerIdOf(user);
}

async function recordOwner(owners: JobOwners, jobId: string, user: UserRecord): Promise<boolean> {
  for (let attempt = 1; attempt <= OWNER_RECORD_ATTEMPTS; attempt++) {
    try {
      await owners.set(canonicalJobId(jobId), ownerIdOf(user));
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
  return false;
}

/**
 * Submits a job and records its submitter. A job whose submitter could not be recorded would be nobody's to
 * see, so the relay cancels it at the service and says so instead.
 */
async function createJob(
  parts: JobRouteParts,
  request: OperationRequest,
  reply: FastifyReply,
  user: UserRecord,
) {
  const signal = reply.request.clientSignal;
  const answer = await parts.upstream.send(request, signal);
  const jobId = answer.status < 300 ? parse(answer.body)?.job_id : undefined;
  if (typeof jobId !== "string") return sendUpstream(reply, answer);
  if (!(await recordOwner(parts.owners, jobId, user))) {
    await parts.upstream
      .send({ operation: operationById("cancelBulkJob"), values: { job_id: jobId } }, signal)
      .catch(() => undefined);
    return sendRelayError(
      reply,
      503,
      "Service Unavailable",
      "The relay could not record the export job as yours, so it cancelled it. Submit it again in a moment.",
    );
  }
  return sendUpstream(reply, answer);
}

/**
 * One person's jobs, paged as the contract pages: the team's list is read from the service (newest first, as
 * many pages as it has, up to a bound) and cut down to the jobs the person submitted, so `total_count` and
 * `total_pages` count theirs.
 */
async function listJobs(
  parts: JobRouteParts,
  request: OperationRequest,
  reply: FastifyReply,
  user: UserRecord,
) {
  const page = (request.values.page ?? parameterDefault(LIST_JOBS.operationId, "page")) as number;
  const perPage = (request.values.per_page ?? parameterDefault(LIST_JOBS.operationId, "per_page")) as number;
  const mine: unknown[] = [];
  for (let upstreamPage = 1; upstreamPage <= MAX_UPSTREAM_PAGES; upstreamPage++) {
    const answer = await parts.upstream.send(
      { operation: request.operation, values: { page: upstreamPage, per_page: UPSTREAM_PAGE } },
      reply.request.clientSignal,
    );
    const parsed = answer.status === 200 ? parse(answer.body) : undefined;
    if (!parsed || !Array.isArray(parsed.jobs)) return sendUpstream(reply, answer);
    for (const job of parsed.jobs as Json[])
      if (mayUseJob(user, await parts.owners.get(canonicalJobId(String(job.job_id))))) mine.push(job);
    const totalPages = Number((parsed.pagination as Json | undefined)?.total_pages ?? 1);
    if (upstreamPage >= totalPages) break;
  }
  const { data, pagination } = pageOf(mine, page, perPage);
  return reply.code(200).type("application/json").send({ jobs: data, pagination });
}

/** A download origin as compared: scheme, host and port, as `URL.origin` writes them. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/**
 * The signed URL the results endpoint redirected to, when it is on one of the relay's download origins (the
 * contract: a pre-signed object-storage URL on a separate origin); `foreign` when it points anywhere else,
 * which the relay neither fetches nor passes on; undefined for any other answer.
 */
function signedUrlOf(
  parts: JobRouteParts,
  answer: UpstreamAnswer,
): { url: string } | { foreign: string } | undefined {
  const location = answer.headers.get("location");
  if (answer.status < 300 || answer.status >= 400 || !location) return undefined;
  let url: URL;
  try {
    url = new URL(location, parts.upstream.config.serviceUrl);
  } catch {
    return { foreign: "an address that is not a URL" };
  }
  const allowed = parts.downloadOrigins.map(originOf);
  return allowed.includes(url.origin) ? { url: url.href } : { foreign: url.origin };
}

function sendForeignDownload(reply: FastifyReply, origin: string): FastifyReply {
  return sendRelayError(
    reply,
    502,
    "Bad Gateway",
    `The service pointed the export's file at ${origin}, which is not one of the team relay's download hosts, so the relay did not fetch it. Ask your relay admin (--download-origin).`,
  );
}

/** The results redirect, pointed at a short-lived relay link of the person's instead of the signed URL. */
async function linkResults(
  parts: JobRouteParts,
  answer: UpstreamAnswer,
  reply: FastifyReply,
  user: UserRecord,
) {
  const signed = signedUrlOf(parts, answer);
  if (!signed) return sendUpstream(reply, answer);
  if ("foreign" in signed) return sendForeignDownload(reply, signed.foreign);
  // Not guessable, and useless without the owner's key anyway.
  const id = newLinkId();
  await parts.downloads.put(linkKey(user, id), signed.url, DOWNLOAD_LINK_TTL_MS);
  // Relative, so the link holds behind a proxy that serves the relay under a path: .../api/downloads/{id}.
  return reply.code(302).header("Location", `../../../../downloads/${id}`).send();
}

/**
 * Why a person may not act on a job, or undefined when they may. Only the words: a fastify reply is thenable,
 * so an async function handing one back would be awaited into undefined.
 */
async function jobRefusal(
  parts: JobRouteParts,
  user: UserRecord,
  jobId: string | undefined,
): Promise<string | undefined> {
  if (user.accounts.length === 0 && !user.admin)
    return `The team relay gives ${user.name} no accounts, so no export jobs. Ask your relay admin to add one.`;
  if (jobId === undefined || mayUseJob(user, await parts.owners.get(canonicalJobId(jobId)))) return undefined;
  return "This export job was not submitted by you through the team relay: only its owner can see it.";
}

/**
 * Export jobs. The service sees one client (the relay), so the relay remembers who submitted each job: a
 * person lists, reads, cancels and downloads only their own. A person with no accounts submits nothing.
 */
export async function handleJobOperation(
  parts: JobRouteParts,
  request: OperationRequest,
  reply: FastifyReply,
  user: UserRecord,
): Promise<FastifyReply> {
  const { operationId } = request.operation;
  const jobId = request.values.job_id as string | undefined;
  const refusal = await jobRefusal(parts, user, jobId);
  if (refusal) return sendRelayError(reply, 403, "Forbidden", refusal);
  if (operationId === "createBulkJob") return createJob(parts, request, reply, user);
  if (operationId === "listBulkJobs") return listJobs(parts, request, reply, user);
  const answer = await parts.upstream.send(request, reply.request.clientSignal);
  if (operationId === "getBulkJobResults") return linkResults(parts, answer, reply, user);
  return sendUpstream(reply, answer);
}

const JOB_RESULTS = operationById("getBulkJobResults");

/** Where a browser link is made (POST, the owner's key) and opened (GET, no key): under /api/downloads/. */
export const BROWSER_LINKS_PATH = "/api/downloads/links";

/**
 * Makes a link to a job's file that the person's own browser can open: desktop Excel saves files through the
 * default browser (Office.context.ui.openBrowserWindow), which carries none of the pane's headers, so the
 * personal key cannot go with it. Only the job's owner can make one (their key, as for every job operation);
 * the link opens once, for a minute, and is answered relative to this route (`links/<id>`), so it holds
 * behind a proxy that serves the relay under a path.
 */
export async function mintBrowserLink(
  parts: JobRouteParts,
  body: unknown,
  reply: FastifyReply,
  user: UserRecord,
): Promise<FastifyReply> {
  const jobId = (body as { job_id?: unknown } | undefined)?.job_id;
  let results: OperationRequest;
  try {
    if (typeof jobId !== "string") throw new RequestRefusal(400, 'Name the export job: {"job_id": "..."}.');
    results = matchOperation("GET", operationPath(JOB_RESULTS, { job_id: jobId }), "");
  } catch (error) {
    if (error instanceof RequestRefusal)
      return sendRelayError(reply, 400, "Invalid parameter", error.message);
    throw error;
  }
  const refusal = await jobRefusal(parts, user, jobId);
  if (refusal) return sendRelayError(reply, 403, "Forbidden", refusal);
  const answer = await parts.upstream.send(results, reply.request.clientSignal);
  const signed = signedUrlOf(parts, answer);
  if (!signed) return sendUpstream(reply, answer);
  if ("foreign" in signed) return sendForeignDownload(reply, signed.foreign);
  const id = newLinkId();
  await parts.downloads.put(browserLinkKey(id), signed.url, BROWSER_LINK_TTL_MS);
  return reply
    .code(201)
    .type("application/json")
    .send({ link: `links/${id}`, expires_in: BROWSER_LINK_TTL_MS / 1000 });
}

const FILE_HEADERS = ["content-type", "content-length", "content-disposition"];

/** The path of a download link as the request log may show it: without the link's id. */
export function redactDownloadPath(url: string): string {
  return url.replace(/(\/api\/downloads\/)[^?#]*/, "$1[redacted]");
}

/** The download host's own redirects are not followed: the file is where the service's signed URL says. */
const fetchWithoutRedirects: typeof fetch = (input, init) => fetch(input, { ...init, redirect: "manual" });

/** The export file behind a signed URL, fetched by the relay and streamed on. */
async function streamFile(reply: FastifyReply, url: string): Promise<FastifyReply> {
  let response: Response;
  try {
    // Bounded: a download host that does not answer, or stalls mid-file, ends in a 504.
    response = await fetchDownload(url, undefined, undefined, fetchWithoutRedirects);
  } catch (error) {
    if (error instanceof ApiError && error.kind === "timeout") return sendApiError(reply, error);
    return sendRelayError(
      reply,
      502,
      "Bad Gateway",
      "The relay could not reach the download host. Try again in a moment.",
    );
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    return sendRelayError(
      reply,
      502,
      "Bad Gateway",
      "The download host answered with a redirect, which the team relay does not follow. Try again later or ask your relay admin.",
    );
  }
  for (const name of FILE_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) reply.header(name, value);
  }
  reply.code(response.status);
  return reply.send(
    response.body ? Readable.fromWeb(response.body as import("node:stream/web").ReadableStream) : null,
  );
}

/**
 * The export file behind a relay download link. A key link is its owner's: it is looked up under the name of
 * the key that presents it. A browser link needs no key (the browser has none) and opens once.
 */
export function registerDownloadRoute(
  app: FastifyInstance,
  downloads: DownloadLinks,
  checkKey: preHandlerHookHandler,
): void {
  app.get<{ Params: { id: string } }>(
    "/api/downloads/:id",
    { preHandler: checkKey },
    async (request, reply) => {
      const user = request.relayUser as UserRecord;
      return streamLinked(
        reply,
        request.params.id,
        (id) => downloads.get(linkKey(user, id)),
        "This download link has expired or is not yours. Choose Load into sheet again for a fresh one.",
      );
    },
  );
  app.get<{ Params: { id: string } }>(`${BROWSER_LINKS_PATH}/:id`, (request, reply) =>
    streamLinked(
      reply,
      request.params.id,
      (id) => downloads.take(browserLinkKey(id)),
      "This download link was used already or has expired. Choose Save file in the add-in again for a fresh one.",
    ),
  );
}

/** The file behind a link id (looked up only when the id has a link's form), or a 404 saying why there is none. */
async function streamLinked(
  reply: FastifyReply,
  id: string,
  lookUp: (id: string) => Promise<string | undefined>,
  missing: string,
): Promise<FastifyReply> {
  const url = LINK_ID.test(id) ? await lookUp(id) : undefined;
  if (!url) return sendRelayError(reply, 404, "Not Found", missing);
  return streamFile(reply, url);
}
