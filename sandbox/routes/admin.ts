import type { FastifyInstance } from "fastify";
import { RATE_LIMIT_MODES, type RateLimitMode } from "../auth/rateLimiter";
import type { SandboxContext } from "../context";
import { findClient } from "../data/clients";
import { RATE_LIMIT_HEADER_FORMS, type FaultSettings } from "../faults/faultSettings";
import { sendError } from "../http/errors";

const faultSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    latencyMs: { type: "number", minimum: 0, maximum: 60_000 },
    errorRate: { type: "number", minimum: 0, maximum: 1 },
    rateLimitBurst: { type: "integer", minimum: 0 },
    dropRate: { type: "number", minimum: 0, maximum: 1 },
    emptyForbiddenBodies: { type: "boolean" },
    replacedBodies: { type: "object", additionalProperties: { type: "string" } },
    rateLimitHeaders: { type: "string", enum: [...RATE_LIMIT_HEADER_FORMS] },
    omitTotalPages: { type: "boolean" },
  },
} as const;

/**
 * Test and benchmark controls, registered only with the `admin` option (CLI `--admin`). They are
 * not part of the service contract and need no token: the sandbox listens on 127.0.0.1 only.
 */
export function registerAdminRoutes(app: FastifyInstance, context: SandboxContext): void {
  app.get("/admin/faults", async () => context.faults.settings());
  app.put<{ Body: Partial<FaultSettings> }>(
    "/admin/faults",
    { schema: { body: faultSchema } },
    async (request) => context.faults.update(request.body),
  );
  app.delete("/admin/faults", async () => context.faults.reset());

  app.get("/admin/counters", async () => ({
    counts: context.counters.snapshot(),
    total: context.counters.total(),
  }));
  app.delete("/admin/counters", async () => {
    context.counters.reset();
    return { counts: {}, total: 0 };
  });

  app.post<{ Body: { access_token?: string; client_id?: string } }>(
    "/admin/tokens/revoke",
    {
      schema: {
        body: {
          type: "object",
          additionalProperties: false,
          minProperties: 1,
          properties: {
            access_token: { type: "string", minLength: 1 },
            client_id: { type: "string", minLength: 1 },
          },
        },
      },
    },
    async (request) => ({
      revoked: context.tokens.revoke({
        accessToken: request.body.access_token,
        clientId: request.body.client_id,
      }),
    }),
  );

  app.post<{ Body: { client_id: string } }>(
    "/admin/manual_tokens",
    {
      schema: {
        body: {
          type: "object",
          additionalProperties: false,
          required: ["client_id"],
          properties: { client_id: { type: "string" } },
        },
      },
    },
    async (request, reply) => {
      if (!findClient(request.body.client_id))
        return sendError(reply, 404, "Not Found", `No demo client ${request.body.client_id}`);
      const token = context.tokens.issueManualToken(request.body.client_id);
      return {
        access_token: token.accessToken,
        token_type: "Bearer",
        expires_in: token.expiresAt - token.createdAt,
        scope: "api",
        created_at: token.createdAt,
      };
    },
  );

  app.get("/admin/clock", async () => ({ now: new Date(context.clock.now()).toISOString() }));
  app.put<{ Body: { now?: string; advance_seconds?: number; real_time?: boolean } }>(
    "/admin/clock",
    {
      schema: {
        body: {
          type: "object",
          additionalProperties: false,
          properties: {
            now: { type: "string", format: "date-time" },
            advance_seconds: { type: "number" },
            real_time: { type: "boolean" },
          },
        },
      },
    },
    async (request) => {
      if (request.body.real_time) context.clock.useRealTime();
      if (request.body.now) context.clock.set(request.body.now);
      if (request.body.advance_seconds) context.clock.advance(request.body.advance_seconds * 1000);
      return { now: new Date(context.clock.now()).toISOString() };
    },
  );

  app.put<{ Body: { limit: number; window_seconds: number; mode?: RateLimitMode } }>(
    "/admin/rate_limit",
    {
      schema: {
        body: {
          type: "object",
          additionalProperties: false,
          required: ["limit", "window_seconds"],
          properties: {
            limit: { type: "integer", minimum: 1 },
            window_seconds: { type: "integer", minimum: 1 },
            mode: { type: "string", enum: [...RATE_LIMIT_MODES] },
          },
        },
      },
    },
    async (request) => {
      context.rateLimiter.configure(request.body.limit, request.body.window_seconds, request.body.mode);
      return context.rateLimiter.settings();
    },
  );

  app.get("/admin/quota", async () => ({ limit: context.quota.limitValue() }));
  app.put<{ Body: { limit: number } }>(
    "/admin/quota",
    {
      schema: {
        body: {
          type: "object",
          additionalProperties: false,
          required: ["limit"],
          properties: { limit: { type: "integer", minimum: 0 } },
        },
      },
    },
    async (request) => {
      context.quota.configure(request.body.limit);
      context.quota.reset();
      return { limit: context.quota.limitValue() };
    },
  );
}
