import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { bearerTokenOf, identifyCaller } from "../auth/bearer";
import type { RateLimitDecision } from "../auth/rateLimiter";
import type { SandboxContext } from "../context";
import { refusalAnswer, validateRequest } from "../../src/api/requestValidator";
import { tierAtLeast } from "../../src/api/tiers";
import { refuseForeignAccess } from "./accessCheck";
import { sendError, sendForbidden, sendUnauthorized } from "./errors";
import { withoutTotalPages } from "./pagination";
import { sendRateLimited } from "./rateLimitReply";
import { bodyUnderContractNames } from "./renamedBodyFields";

function countRequest(context: SandboxContext, request: FastifyRequest): void {
  if (request.method === "OPTIONS") return;
  const path = request.routeOptions.url ?? request.url.split("?")[0] ?? request.url;
  if (path.startsWith("/admin")) return;
  context.counters.increment(path);
}

/**
 * Injected faults, applied to the data API before anything else (like a failing proxy in front).
 * The token endpoint is spared: its contract names no 429 or 500, and sign-in stays usable.
 * Returns whether the request was answered (or dropped) here. A boolean, not the reply: a fastify
 * reply is thenable, so awaiting a function that returns it would yield undefined.
 */
async function injectFaults(
  context: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  if (!request.routeOptions.config.operation?.requiresAuth) return false;
  const { latencyMs } = context.faults.settings();
  // Unreferenced, so a delayed request does not keep a closing process (or a jest worker) alive.
  if (latencyMs > 0) await sleep(latencyMs, undefined, { ref: false });
  switch (context.faults.decide()) {
    case "drop":
      reply.hijack();
      request.raw.socket.destroy();
      return true;
    case "error":
      reply.code(500).type("text/plain; charset=utf-8").send("Internal Server Error");
      return true;
    case "rate-limit":
      rateLimited(context, reply, context.rateLimiter.peek(bearerTokenOf(request) ?? request.ip));
      return true;
    case "pass":
      return false;
  }
}

function rateLimited(
  context: SandboxContext,
  reply: FastifyReply,
  decision: RateLimitDecision,
): FastifyReply {
  return sendRateLimited(reply, decision, context.faults.settings().rateLimitHeaders, context.clock.now());
}

/** Checks the token, the rate limit and the tier, in that order (401 before 429 before 403). */
function guardOperation(
  context: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | undefined {
  const operation = request.routeOptions.config.operation;
  if (!operation?.requiresAuth) return undefined;
  const caller = identifyCaller(request, context.tokens);
  if (!caller) return sendUnauthorized(reply);
  const decision = context.rateLimiter.consume(caller.token.accessToken);
  if (!decision.allowed) return rateLimited(context, reply, decision);
  if (operation.requiredTier && !tierAtLeast(caller.client.tier, operation.requiredTier)) {
    const message = operation.extensions["x-tier-message"];
    return sendForbidden(
      reply,
      typeof message === "string" ? message : `This endpoint requires the ${operation.requiredTier} tier`,
    );
  }
  request.caller = caller;
  return undefined;
}

function validateOperation(
  context: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | undefined {
  const operation = request.routeOptions.config.operation;
  if (!operation) return undefined;
  const arrived = { params: request.params, query: request.query, body: request.body };
  const foreign = refuseForeignAccess(context, request, reply, arrived);
  if (foreign) return foreign;
  const renamed = bodyUnderContractNames(
    operation.operationId,
    request.body,
    context.options.renamedBodyFields,
  );
  if (!renamed.ok) {
    const error = operation.badRequestError ?? renamed.message;
    return sendError(reply, 400, error, renamed.message, { errors: [renamed.message] });
  }
  const result = validateRequest(operation.operationId, {
    params: request.params,
    query: request.query,
    body: renamed.body,
    contentType: request.headers["content-type"],
  });
  if (!result.ok) {
    const { status, body } = refusalAnswer(operation.operationId, result);
    return sendError(reply, status, body.error, body.message, { errors: body.errors });
  }
  request.validated = result.value;
  return refuseForeignAccess(context, request, reply, result.value);
}

/**
 * One property by id, which the contract does not offer: the live service answered a token lacking access to it
 * with 403, not 404 (api-notes third pass). No sandbox client has that access, so a signed-in caller gets 403 (and
 * one without a valid token 401, as on every data path), while `/v1/properties` itself stays 404 as live.
 */
const SINGLE_PROPERTY = /^\/v1\/properties\/\d+\/?$/;

/**
 * The order every API request goes through: count, authenticate, rate-limit, check the tier, check access to
 * the account, comp set or job named, validate against the contract (and check access again on the validated
 * values); then the operation's handler.
 */
export function installRequestPipeline(app: FastifyInstance, context: SandboxContext): void {
  app.decorateRequest("caller", null);
  app.decorateRequest("validated", null);

  app.addHook("onRequest", async (request, reply) => {
    countRequest(context, request);
    if (await injectFaults(context, request, reply)) return reply;
    return guardOperation(context, request, reply);
  });

  app.addHook("preValidation", async (request, reply) => validateOperation(context, request, reply));

  app.addHook("onSend", async (request, reply, payload) => {
    const operationId = request.routeOptions.config.operation?.operationId;
    const replacement =
      operationId === undefined ? undefined : context.faults.settings().replacedBodies[operationId];
    if (replacement !== undefined && reply.statusCode >= 200 && reply.statusCode < 300) {
      reply.header("content-type", "application/json; charset=utf-8");
      return replacement;
    }
    const faults = context.faults.settings();
    const api = request.routeOptions.config.operation?.requiresAuth === true;
    const emptied = reply.statusCode === 403 && api && faults.emptyForbiddenBodies;
    if (!emptied) return api && faults.omitTotalPages ? withoutTotalPages(payload) : payload;
    reply.removeHeader("content-type");
    return "";
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? request.url;
    if (request.method === "GET" && SINGLE_PROPERTY.test(path)) {
      if (!identifyCaller(request, context.tokens)) return sendUnauthorized(reply);
      return sendForbidden(reply, "You do not have access to this property");
    }
    return sendError(reply, 404, "Not Found", `No route for ${request.method} ${path}`);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error(error);
      return reply.code(500).type("text/plain; charset=utf-8").send("Internal Server Error");
    }
    const operation = request.routeOptions.config?.operation;
    const error400 = status === 400 && operation?.badRequestError ? operation.badRequestError : undefined;
    const title =
      error400 ??
      (status === 413 ? "Payload Too Large" : status === 415 ? "Unsupported Media Type" : "Bad Request");
    return sendError(reply, status, title, error.message);
  });
}
