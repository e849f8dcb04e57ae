import type { FastifyReply } from "fastify";

/** The service's error payload (spec: Resources > Error payload). */
export interface ErrorPayload {
  error: string;
  message?: string;
  errors?: string[];
  quota_limit?: number;
  quota_usage?: number;
}

export function sendError(
  reply: FastifyReply,
  status: number,
  error: string,
  message?: string,
  extra: Omit<ErrorPayload, "error" | "message"> = {},
): FastifyReply {
  const payload: ErrorPayload = { error, ...(message === undefined ? {} : { message }), ...extra };
  return reply.code(status).type("application/json").send(payload);
}

/** A 400 whose `error` and `message` both state the problem (the service's usual shape). */
export function sendBadRequest(reply: FastifyReply, message: string): FastifyReply {
  return sendError(reply, 400, message, message);
}

/** The live service's 401 text (api-notes, "Observed on the live service"). */
export const UNAUTHORIZED_MESSAGE = "Missing or invalid bearer token";

export function sendUnauthorized(reply: FastifyReply): FastifyReply {
  return sendError(reply, 401, "Unauthorized", UNAUTHORIZED_MESSAGE);
}

export function sendForbidden(reply: FastifyReply, message: string): FastifyReply {
  return sendError(reply, 403, "Forbidden", message);
}

export function sendNotFound(reply: FastifyReply, message: string): FastifyReply {
  return sendError(reply, 404, "Not Found", message);
}
