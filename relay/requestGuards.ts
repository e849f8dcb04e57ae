import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { UserRecords } from "./store/relayStore";
import { keyChecker } from "./routes/authenticate";
import { sendRelayError } from "./routes/replies";

/** The largest request body the relay reads (the add-in's largest is a few kilobytes). */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/**
 * How long a client may take over its request, and how long a connection may sit idle. Node's own defaults
 * are overridden by fastify (its requestTimeout 0 means never), so a client sending one byte a minute would
 * hold a socket and its memory for good.
 */
export interface RequestTimeouts {
  /** From the connection's first byte to the end of the request's headers. */
  headersMs: number;
  /** From the first byte to the end of the request's body. */
  requestMs: number;
  /**
   * How long a socket may go without a byte either way. It must outlast the longest quiet wait of an answered
   * request: a person's turn at the team gate and the upstream deadline.
   */
  connectionMs: number;
}

export const DEFAULT_REQUEST_TIMEOUTS: RequestTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  connectionMs: 10 * 60_000,
};

/**
 * The fastify options that put the timeouts on its Node server. Node looks for late requests every
 * `connectionsCheckingInterval` (30 s by its default): a quarter of the shortest timeout keeps a refusal
 * within a little more than that timeout.
 */
export function serverTimeoutOptions(timeouts: RequestTimeouts) {
  const shortest = Math.min(timeouts.headersMs, timeouts.requestMs);
  return {
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.connectionMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(10, Math.floor(shortest / 4))),
    },
  };
}

/** Whether the client announced a body: a length above 0, a chunked body, or an `Expect: 100-continue`. */
function announcesBody(request: FastifyRequest): boolean {
  const { headers } = request;
  const length = Number(headers["content-length"] ?? 0);
  return (
    (Number.isFinite(length) && length > 0) ||
    headers["transfer-encoding"] !== undefined ||
    /100-continue/i.test(String(headers.expect ?? ""))
  );
}

/** The refusal ends the connection: the body the client is still sending is never read. */
function refuseUnread(reply: FastifyReply): FastifyReply {
  return reply.header("Connection", "close");
}

/**
 * Decides on a request before any byte of its body is read. No route of the relay takes a body without a
 * personal key, so a body announced without a valid key is refused at once (401), as is a body longer than
 * the limit (413); either way the connection closes unread. A client that asked `Expect: 100-continue` is
 * told to go on only once the key and the route's own checks passed.
 */
export function guardRequestBodies(app: FastifyInstance, users: UserRecords, bodyLimit: number): void {
  const checkKey = keyChecker(users, { admin: false });
  // Node answers `Expect: 100-continue` itself unless the server listens for checkContinue: the request goes
  // to fastify unanswered, and the preParsing hook below says Continue when the checks passed.
  const server = app.server as Server;
  server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) =>
    server.emit("request", request, response),
  );
  app.addHook("onRequest", async (request, reply) => {
    const length = Number(request.headers["content-length"] ?? 0);
    if (length > bodyLimit) {
      await sendRelayError(
        refuseUnread(reply),
        413,
        "Payload Too Large",
        `The request body is ${length} bytes; the team relay reads at most ${bodyLimit}.`,
      );
      return reply;
    }
    if (!announcesBody(request)) return undefined;
    await checkKey(request, refuseUnread(reply));
    if (reply.sent) return reply;
    // The key was good: the connection may stay open after all.
    reply.removeHeader("Connection");
    return undefined;
  });
  app.addHook("preParsing", async (request, reply, payload) => {
    if (/100-continue/i.test(String(request.headers.expect ?? "")) && !reply.sent) reply.raw.writeContinue();
    return payload;
  });
}
