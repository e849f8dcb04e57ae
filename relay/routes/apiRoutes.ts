import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Account } from "../../src/api/client";
import { ApiError } from "../../src/api/errors";
import { parameterDefault } from "../../src/api/requestFacts";
import {
  RequestRefusal,
  bulkDetailsIds,
  matchOperation,
  operationById,
  type OperationRequest,
} from "../../src/api/operations";
import { requestContext } from "../requestContext";
import { belowApiBase } from "./apiTarget";
import { refuseOutsideContract } from "./contractDoor";
import type { RelayStats } from "../status/relayStats";
import type { RelayStore, UserRecord } from "../store/relayStore";
import { StoreBusyError } from "../store/retry";
import type { Upstream, UpstreamAnswer } from "../upstream/upstream";
import { compSetIds, mayUse, refusal } from "./accountAccess";
import { keyChecker } from "./authenticate";
import { splitByRow } from "../../src/data/batchedEndpoints";
import { batchedRead, type BatchedAnswer } from "./batchedReads";
import type { CachedReads } from "./cachedReads";
import {
  BROWSER_LINKS_PATH,
  handleJobOperation,
  mintBrowserLink,
  registerDownloadRoute,
  type JobRouteParts,
} from "./jobRoutes";
import { pageOf, sendApiError, sendRelayError, sendUpstream } from "./replies";

export interface ApiRouteParts {
  upstream: Upstream;
  store: RelayStore;
  stats: RelayStats;
  reads: CachedReads;
  /** The origins of the service's signed download URLs (jobRoutes.ts). */
  downloadOrigins: readonly string[];
}

function sendBatched(reply: FastifyReply, answer: BatchedAnswer): FastifyReply {
  if ("error" in answer) return sendApiError(reply, answer.error);
  return reply.code(200).type("application/json").send(answer.body);
}

/** The accounts the relay's client may act for, cut down to the person's, one page as the contract pages. */
async function accountsPage(parts: ApiRouteParts, user: UserRecord, request: OperationRequest) {
  const { operationId } = request.operation;
  const page = (request.values.page ?? parameterDefault(operationId, "page")) as number;
  const perPage = (request.values.per_page ?? parameterDefault(operationId, "per_page")) as number;
  const all: Account[] = (await parts.upstream.data.accounts()).value;
  return pageOf(
    all.filter((account) => mayUse(user, account.id)),
    page,
    perPage,
  );
}

/**
 * Whether the person holds every account the relay may act for. The service refuses the relay a comp set of
 * any other account (403), so such a person may see every comp set the service answers. The relay's account
 * list is the same cached read that answers everyone's sign-in, so knowing this costs no request of its own.
 */
async function holdsEveryRelayAccount(parts: ApiRouteParts, user: UserRecord): Promise<boolean> {
  const relayAccounts: Account[] = (await parts.upstream.data.accounts()).value;
  return relayAccounts.length > 0 && relayAccounts.every((account) => mayUse(user, account.id));
}

/**
 * Whether the person may read the comp set: they hold every account the relay may act for, or one of their
 * accounts lists it. Each account's list is a cached read shared by everyone with that account: the lists
 * already at hand are looked at first, and only then are the others asked for, so a comp set the pane has
 * just listed costs no request to check.
 */
async function mayUseCompSet(
  parts: ApiRouteParts,
  user: UserRecord,
  compSetId: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (await holdsEveryRelayAccount(parts, user)) return true;
  const listCompSets = operationById("listCompSets");
  const names = (answer: UpstreamAnswer | undefined) =>
    answer?.status === 200 && compSetIds(answer.body).includes(compSetId);
  const unread: OperationRequest[] = [];
  for (const accountId of user.accounts) {
    const list = { operation: listCompSets, values: { account_id: accountId }, accountId };
    const cached = await parts.reads.peek(list);
    if (names(cached)) return true;
    if (!cached) unread.push(list);
  }
  for (const list of unread) if (names(await parts.reads.read(list, signal))) return true;
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

/** A read or write of one account's data, the account already checked: batched, cached or forwarded. */
async function accountOperation(
  parts: ApiRouteParts,
  request: OperationRequest,
  reply: FastifyReply,
  accountId: number,
  user: UserRecord,
): Promise<FastifyReply> {
  const { operation } = request;
  const signal = reply.request.clientSignal;
  if (operation.batch === "bulk_details" && bulkDetailsIds(request) === "both")
    return sendRelayError(reply, 400, "Invalid parameter", "Give property_ids or property_ids[], not both.");
  const batched = splitByRow(request);
  if (batched)
    return sendBatched(
      reply,
      await batchedRead(parts.upstream, parts.stats, user.name, signal, { ...request, accountId }, batched),
    );
  if (operation.cacheKind) {
    const onFetched = operation.spendsPropertyQuota ? quotaCounter(parts, accountId) : undefined;
    return sendUpstream(reply, await parts.reads.read(request, signal, onFetched));
  }
  return sendUpstream(reply, await parts.upstream.send(request, signal));
}

const jobPartsOf = (parts: ApiRouteParts): JobRouteParts => ({
  upstream: parts.upstream,
  owners: parts.store.jobOwners,
  downloads: parts.store.downloads,
  downloadOrigins: parts.downloadOrigins,
});

async function dispatch(
  parts: ApiRouteParts,
  request: OperationRequest,
  reply: FastifyReply,
  user: UserRecord,
): Promise<FastifyReply> {
  const { reach } = request.operation;
  const signal = reply.request.clientSignal;
  switch (reach.kind) {
    case "own_accounts":
      return reply
        .code(200)
        .type("application/json")
        .send(await accountsPage(parts, user, request));
    case "own_jobs":
    case "job":
      return handleJobOperation(jobPartsOf(parts), request, reply, user);
    case "comp_set": {
      const compSetId = request.values.comp_set_id as number;
      if (!(await mayUseCompSet(parts, user, compSetId, signal)))
        return sendRelayError(
          reply,
          403,
          "Forbidden",
          `Comp set ${compSetId} belongs to none of the accounts the team relay gives ${user.name}.`,
        );
      if (request.operation.cacheKind) return sendUpstream(reply, await parts.reads.read(request, signal));
      return sendUpstream(reply, await parts.upstream.send(request, signal));
    }
    case "account": {
      const accountId = request.accountId;
      if (accountId === undefined)
        return sendRelayError(
          reply,
          400,
          "Invalid parameter",
          "account_id is required: the team relay answers only for accounts it gives you.",
        );
      if (!mayUse(user, accountId)) return sendRelayError(reply, 403, "Forbidden", refusal(user, accountId));
      return accountOperation(parts, request, reply, accountId, user);
    }
  }
}

function sendRefusal(reply: FastifyReply, refusalOf: RequestRefusal): FastifyReply {
  if (refusalOf.allow) reply.header("Allow", refusalOf.allow.join(", "));
  const error = { 400: "Invalid parameter", 404: "Not Found", 405: "Method Not Allowed" }[refusalOf.status];
  return sendRelayError(reply, refusalOf.status, error, refusalOf.message);
}

async function answer(parts: ApiRouteParts, request: FastifyRequest, reply: FastifyReply, user: UserRecord) {
  const target = belowApiBase(request.raw.url ?? request.url);
  if (!target) return sendRelayError(reply, 404, "Not Found", "No operation of the service has this path.");
  let operationRequest: OperationRequest;
  try {
    operationRequest = matchOperation(request.method, target.path, target.query, request.body);
  } catch (error) {
    if (error instanceof RequestRefusal) return sendRefusal(reply, error);
    throw error;
  }
  return dispatch(parts, operationRequest, reply, user);
}

/**
 * The service's API under the relay's origin: `/api/v1/...` is `{base_url}/v1/...`. Only the operations of
 * the contract pass (src/api/operations.ts), each rebuilt from its parsed values; every request carries a
 * person's key, and what it may reach is decided here, before any cache is consulted.
 */
export function registerApiRoutes(app: FastifyInstance, parts: ApiRouteParts): void {
  const checkKey = keyChecker(parts.store.users, { admin: false });
  const jobParts = jobPartsOf(parts);
  registerDownloadRoute(app, parts.store.downloads, checkKey);
  app.post(BROWSER_LINKS_PATH, {
    preHandler: checkKey,
    handler: asPerson(parts, (request, reply, user) => mintBrowserLink(jobParts, request.body, reply, user)),
  });
  app.route({
    method: ["GET", "POST", "DELETE", "PUT", "PATCH"],
    url: "/api/*",
    // The person's key first; then what the service would refuse by the contract is refused here, unspent.
    preHandler: [checkKey, refuseOutsideContract],
    handler: asPerson(parts, (request, reply, user) => answer(parts, request, reply, user)),
  });
}

/**
 * A request of a person whose key was checked: counted for them, sent upstream in their turn at the team
 * gate, and every failure answered in the contract's error form.
 */
function asPerson(
  parts: ApiRouteParts,
  work: (request: FastifyRequest, reply: FastifyReply, user: UserRecord) => Promise<FastifyReply>,
) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const user = request.relayUser as UserRecord;
    await parts.stats.userRequest(user.name);
    return requestContext.run({ user: user.name }, async () => {
      try {
        return await work(request, reply, user);
      } catch (error) {
        if (error instanceof ApiError) return sendApiError(reply, error);
        // The store stayed locked by another program: nothing was lost, ask again in a moment.
        if (error instanceof StoreBusyError) {
          request.log.warn({ err: error }, "relay store busy");
          return reply.header("Retry-After", "5").code(503).type("application/json").send({
            error: "Service Unavailable",
            message: "The team relay is busy for a moment. Try again in a few seconds.",
          });
        }
        request.log.error({ err: error }, "relay request failed");
        return sendRelayError(
          reply,
          502,
          "Bad Gateway",
          "The relay failed to answer this request. Try again in a moment.",
        );
      }
    });
  };
}
