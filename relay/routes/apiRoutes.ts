import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Account } from "../../src/api/client";
import { ApiError } from "../../src/api/errors";
import { requestContext } from "../requestContext";
import type { RelayStats } from "../status/relayStats";
import type { RelayStore, UserRecord } from "../store/relayStore";
import type { Upstream, UpstreamAnswer } from "../upstream/upstream";
import { compSetIds, isObject, mayUse, namedAccounts, refusal, type Json } from "./accountAccess";
import { keyChecker } from "./authenticate";
import {
  batchableForecast,
  batchableMarkets,
  bulkDetails,
  bulkDetailsIds,
  forecast,
  marketMetrics,
  type BatchedAnswer,
} from "./batchedReads";
import { CachedReads, readKind } from "./cachedReads";
import { handleJobRequest, registerDownloadRoute } from "./jobRoutes";
import { sendApiError, sendRelayError, sendUpstream } from "./replies";

export interface ApiRouteParts {
  upstream: Upstream;
  store: RelayStore;
  stats: RelayStats;
  reads: CachedReads;
}

const FORECAST_PATH = /^\/v1\/(properties|geo_boundary)\/(\d+)\/forecasts$/;
const COMP_SET_PATH = /^\/v1\/comp_sets\/(\d+)\//;
const ACCOUNT_COMP_SETS_PATH = /^\/v1\/accounts\/(\d+)\/comp_sets$/;

/**
 * Segments that would climb out of `/v1` at the service (`..`, or slashes and backslashes hidden in escapes):
 * the relay's token must only ever reach the service's API.
 */
function isPlainPath(path: string): boolean {
  return path.split("/").every((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    return decoded !== "." && decoded !== ".." && !/[/\\]/.test(decoded);
  });
}

function sendBatched(reply: FastifyReply, answer: BatchedAnswer): FastifyReply {
  if ("error" in answer) return sendApiError(reply, answer.error);
  return reply.code(200).type("application/json").send(answer.body);
}

/** The accounts the relay's client may act for, cut down to the person's, one page as the contract pages. */
async function accountsPage(parts: ApiRouteParts, user: UserRecord, query: Json, reply: FastifyReply) {
  const page = Number(query.page ?? 1);
  const perPage = Number(query.per_page ?? 50);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
    return sendRelayError(
      reply,
      400,
      "Invalid parameter",
      "page must be >= 1 and per_page between 1 and 100",
    );
  }
  const all: Account[] = (await parts.upstream.data.accounts()).value;
  const mine = all.filter((account) => mayUse(user, account.id));
  return reply
    .code(200)
    .type("application/json")
    .send({
      data: mine.slice((page - 1) * perPage, page * perPage),
      pagination: {
        current_page: page,
        total_pages: Math.max(1, Math.ceil(mine.length / perPage)),
        total_count: mine.length,
        per_page: perPage,
      },
    });
}

/** Whether one of the person's accounts lists the comp set (each account's list is a cached read). */
async function mayUseCompSet(parts: ApiRouteParts, user: UserRecord, compSetId: number): Promise<boolean> {
  for (const accountId of user.accounts) {
    const answer = await parts.reads.read(
      "comp_sets",
      accountId,
      "GET",
      `/v1/accounts/${accountId}/comp_sets`,
      "",
      undefined,
    );
    if (answer.status === 200 && compSetIds(answer.body).includes(compSetId)) return true;
  }
  return false;
}

function quotaCounter(parts: ApiRouteParts, accountId: number) {
  return async (answer: UpstreamAnswer) => {
    try {
      const parsed = JSON.parse(answer.body.toString("utf8")) as { data?: unknown[] };
      await parts.stats.quotaUsed(accountId, parsed.data?.length ?? 0);
    } catch {
      // Not a list of properties: nothing counted toward the quota.
    }
  };
}

async function dispatch(
  parts: ApiRouteParts,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRecord,
) {
  const [rawPath, query = ""] = request.url.slice("/api".length).split(/\?(.*)/s, 2) as [string, string?];
  const path = rawPath.replace(/\/+$/, "");
  if (!isPlainPath(path)) {
    return sendRelayError(reply, 400, "Invalid parameter", "The path must name an endpoint of the service.");
  }
  const method = request.method;
  const queryObject = (request.query ?? {}) as Json;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);

  if (path === "/v1/accounts" && method === "GET") return accountsPage(parts, user, queryObject, reply);
  if (path.startsWith("/v1/bulk_api/jobs")) {
    return handleJobRequest(
      { upstream: parts.upstream, owners: parts.store.jobOwners, downloads: parts.store.downloads },
      request,
      reply,
      user,
      path,
      query,
    );
  }
  const compSet = COMP_SET_PATH.exec(path);
  if (compSet) {
    if (!(await mayUseCompSet(parts, user, Number(compSet[1])))) {
      return sendRelayError(
        reply,
        403,
        "Forbidden",
        `Comp set ${compSet[1]} belongs to none of the accounts the team relay gives ${user.name}.`,
      );
    }
    const kind = readKind(path);
    if (method === "GET" && kind)
      return sendUpstream(reply, await parts.reads.read(kind, undefined, method, path, query, body));
    return sendUpstream(
      reply,
      await parts.upstream.forward(method, `${path}${query ? `?${query}` : ""}`, body),
    );
  }

  const pathAccount = ACCOUNT_COMP_SETS_PATH.exec(path)?.[1];
  const named = namedAccounts(queryObject, request.body);
  if (named === "invalid")
    return sendRelayError(reply, 400, "Invalid parameter", "account_id must be an integer");
  const accounts = pathAccount ? [...named, Number(pathAccount)] : named;
  if (accounts.length === 0) {
    return sendRelayError(
      reply,
      400,
      "Invalid parameter",
      "account_id is required: the team relay answers only for accounts it gives you.",
    );
  }
  const forbidden = accounts.find((accountId) => !mayUse(user, accountId));
  if (forbidden !== undefined) return sendRelayError(reply, 403, "Forbidden", refusal(user, forbidden));
  const accountId = accounts[0] as number;

  if (path === "/v1/properties/bulk_details" && method === "GET") {
    const ids = bulkDetailsIds(queryObject);
    if (ids) return sendBatched(reply, await bulkDetails(parts.upstream.data, parts.stats, accountId, ids));
  }
  if (path === "/v1/explore_markets" && method === "POST" && isObject(request.body)) {
    const markets = batchableMarkets(request.body);
    if (markets)
      return sendBatched(reply, await marketMetrics(parts.upstream.data, parts.stats, accountId, markets));
  }
  const forecastPath = FORECAST_PATH.exec(path);
  if (forecastPath && method === "POST" && isObject(request.body)) {
    const forecastQuery = batchableForecast(request.body);
    const target = {
      kind: forecastPath[1] === "properties" ? "property" : "geo_boundary",
      id: Number(forecastPath[2]),
    } as const;
    if (forecastQuery)
      return sendBatched(
        reply,
        await forecast(parts.upstream.data, parts.stats, accountId, target, forecastQuery),
      );
  }
  const kind = readKind(path);
  if (kind && (method === "GET" || method === "POST")) {
    const onFetched = path === "/v1/geo_boundaries/properties" ? quotaCounter(parts, accountId) : undefined;
    return sendUpstream(reply, await parts.reads.read(kind, accountId, method, path, query, body, onFetched));
  }
  return sendUpstream(
    reply,
    await parts.upstream.forward(method, `${path}${query ? `?${query}` : ""}`, body),
  );
}

/**
 * The service's API under the relay's origin: `/api/v1/...` is `{base_url}/v1/...`. Every request carries a
 * person's key; what it may reach is decided here, before any cache is consulted.
 */
export function registerApiRoutes(app: FastifyInstance, parts: ApiRouteParts): void {
  const checkKey = keyChecker(parts.store.users, { admin: false });
  registerDownloadRoute(app, parts.store.downloads);
  app.route({
    method: ["GET", "POST", "DELETE", "PUT", "PATCH"],
    url: "/api/v1/*",
    preHandler: checkKey,
    handler: async (request, reply) => {
      const user = request.relayUser as UserRecord;
      await parts.stats.userRequest(user.name);
      return requestContext.run({ user: user.name }, async () => {
        try {
          return await dispatch(parts, request, reply, user);
        } catch (error) {
          if (error instanceof ApiError) return sendApiError(reply, error);
          request.log.error({ err: error }, "relay request failed");
          return sendRelayError(
            reply,
            502,
            "Bad Gateway",
            "The relay failed to answer this request. Try again in a moment.",
          );
        }
      });
    },
  });
}
