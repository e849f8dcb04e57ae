import { createReadStream } from "node:fs";
import cors from "@fastify/cors";
import Fastify, { type FastifyInstance } from "fastify";
import type { SandboxContext } from "../context";
import { CONTENT_TYPES } from "./exportWriter";

const DOWNLOAD_ROUTE = "/download/:jobId/:fileName";

function plain(reply: import("fastify").FastifyReply, status: number, text: string) {
  return reply.code(status).type("text/plain; charset=utf-8").send(text);
}

/**
 * The stand-in for object storage: a separate origin serving export files by signed URL. It
 * never accepts a bearer token (like S3, a second credential is an error), so a client that
 * leaks its token to the download host fails loudly in tests.
 */
export async function buildDownloadServer(context: SandboxContext): Promise<FastifyInstance> {
  const app = Fastify({ logger: context.options.logger, forceCloseConnections: true });
  // Object storage set up for browser downloads answers any origin: a signed URL is its own credential and no
  // cookie or token goes with it. A browser that followed the API's redirect even sends `Origin: null`.
  if (context.options.downloadCors) {
    await app.register(cors, {
      origin: "*",
      methods: ["GET"],
      exposedHeaders: ["Content-Length", "Content-Disposition", "Content-Type"],
    });
  }
  app.get<{
    Params: { jobId: string; fileName: string };
    Querystring: { expires?: string; signature?: string };
  }>(DOWNLOAD_ROUTE, async (request, reply) => {
    context.counters.increment(`download:${DOWNLOAD_ROUTE}`);
    if (request.headers.authorization !== undefined) {
      return plain(
        reply,
        400,
        "Only one auth mechanism allowed: the URL is already signed; do not send an Authorization header",
      );
    }
    const { jobId, fileName } = request.params;
    const expires = Number(request.query.expires);
    const signature = request.query.signature ?? "";
    if (
      !Number.isInteger(expires) ||
      !/^[0-9a-f]{64}$/.test(signature) ||
      !context.signer.verify(jobId, fileName, expires, signature)
    ) {
      return plain(reply, 403, "Access denied: the signature does not match");
    }
    if (context.clock.nowSeconds() > expires) return plain(reply, 403, "Access denied: the URL has expired");
    const job = context.jobs.get(jobId);
    if (!job?.file || job.file.name !== fileName) return plain(reply, 404, "No such file");
    return reply
      .type(CONTENT_TYPES[job.outputFormat])
      .header("Content-Disposition", `attachment; filename="${job.file.name}"`)
      .send(createReadStream(job.file.path));
  });
  return app;
}
