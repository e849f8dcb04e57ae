import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DownloadLinks, JobOwners, UserRecord } from "../store/relayStore";
import type { Upstream } from "../upstream/upstream";
import { isObject } from "./accountAccess";
import { sendRelayError, sendUpstream } from "./replies";

/** How long a relay download link stays valid (the service's own link lives 7 days). */
const DOWNLOAD_LINK_TTL_MS = 15 * 60_000;

export interface JobRouteParts {
  upstream: Upstream;
  owners: JobOwners;
  downloads: DownloadLinks;
}

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Export jobs. The service sees one client (the relay), so the relay remembers who submitted each job: a
 * person lists, reads, cancels and downloads only their own. The results redirect points at the relay's own
 * download path, so the page fetches the file from its own origin.
 */
export async function handleJobRequest(
  parts: JobRouteParts,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRecord,
  path: string,
  query: string,
): Promise<FastifyReply> {
  const { upstream, owners, downloads } = parts;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const pathAndQuery = `${path}${query ? `?${query}` : ""}`;
  if (path === "/v1/bulk_api/jobs") {
    const answer = await upstream.forward(request.method, pathAndQuery, body);
    const parsed = parse(answer.body);
    if (
      request.method === "POST" &&
      answer.status < 300 &&
      isObject(parsed) &&
      typeof parsed.job_id === "string"
    ) {
      await owners.set(parsed.job_id, user.name);
    }
    if (request.method === "GET" && answer.status === 200 && isObject(parsed) && Array.isArray(parsed.jobs)) {
      const jobs = parsed.jobs as unknown[];
      const mine = await Promise.all(
        jobs.map(async (job) => isObject(job) && (await owners.get(String(job.job_id))) === user.name),
      );
      return reply
        .code(200)
        .type("application/json")
        .send({ ...parsed, jobs: jobs.filter((_, index) => mine[index]) });
    }
    return sendUpstream(reply, answer);
  }
  const jobId = /^\/v1\/bulk_api\/jobs\/([^/]+)/.exec(path)?.[1];
  if (jobId && (await owners.get(decodeURIComponent(jobId))) !== user.name) {
    return sendRelayError(
      reply,
      403,
      "Forbidden",
      "This export job was not submitted by you through the team relay: only its owner can see it.",
    );
  }
  const answer = await upstream.forward(request.method, pathAndQuery, body);
  const location = answer.headers.get("location");
  if (path.endsWith("/results") && answer.status >= 300 && answer.status < 400 && location) {
    const id = randomUUID();
    await downloads.put(id, new URL(location, upstream.config.serviceUrl).href, DOWNLOAD_LINK_TTL_MS);
    // Relative, so the link holds behind a proxy that serves the relay under a path: .../api/downloads/{id}.
    return reply.code(302).header("Location", `../../../../downloads/${id}`).send();
  }
  return sendUpstream(reply, answer);
}

const FILE_HEADERS = ["content-type", "content-length", "content-disposition"];

/** The export file behind a relay download link, fetched from the service's signed URL and streamed on. */
export function registerDownloadRoute(app: FastifyInstance, downloads: DownloadLinks): void {
  app.get<{ Params: { id: string } }>("/api/downloads/:id", async (request, reply) => {
    const url = await downloads.get(request.params.id);
    if (!url)
      return sendRelayError(
        reply,
        404,
        "Not Found",
        "This download link has expired. Choose Load into sheet again for a fresh one.",
      );
    let response: Response;
    try {
      response = await fetch(url, { redirect: "follow" });
    } catch {
      return sendRelayError(
        reply,
        502,
        "Bad Gateway",
        "The relay could not reach the download host. Try again in a moment.",
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
  });
}
