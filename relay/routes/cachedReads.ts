import { ApiError } from "../../src/api/errors";
import type { QueryIdentity, QueryRunner } from "../../src/data/queryRunner";
import { upstreamBody, upstreamTarget, type OperationRequest } from "../../src/api/operations";
import type { RelayStats } from "../status/relayStats";
import type { Upstream, UpstreamAnswer } from "../upstream/upstream";

/** A cached service answer: enough to send it again as it came. */
interface CachedAnswer {
  status: number;
  contentType: string;
  body: string;
}

const JSON_TYPE = /^application\/([a-z.+-]+\+)?json\b/i;

/** The answer's body as a JSON object, or undefined when it is not JSON of an object. */
function jsonObject(answer: UpstreamAnswer): Record<string, unknown> | undefined {
  if (!JSON_TYPE.test(answer.headers.get("content-type") ?? "")) return undefined;
  try {
    const parsed: unknown = JSON.parse(answer.body.toString("utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether an answer is the operation's answer: a 200 of JSON holding the top-level properties the contract
 * requires. A maintenance page served with 200, an error or a truncated body is passed on but never kept.
 */
export function isCacheableAnswer(request: OperationRequest, answer: UpstreamAnswer): boolean {
  if (answer.status !== 200) return false;
  const parsed = jsonObject(answer);
  if (!parsed) return false;
  const required = request.operation.answer?.required ?? [];
  return required.every((name) => parsed[name] !== undefined);
}

/**
 * The service's "not found" as an error the query runner keeps for the kind's lifetime, as it does for the
 * add-in: only a 404 in the contract's error payload (a proxy's 404 page is passed on, never kept).
 */
function notFoundOf(answer: UpstreamAnswer): ApiError | undefined {
  if (answer.status !== 404) return undefined;
  const payload = jsonObject(answer);
  if (typeof payload?.error !== "string") return undefined;
  const message = typeof payload.message === "string" ? payload.message : payload.error;
  return new ApiError("not_found", message, { status: 404, serviceMessage: payload.error });
}

function notFoundAnswer(error: ApiError): UpstreamAnswer {
  return {
    status: 404,
    headers: new Headers({ "content-type": "application/json" }),
    body: Buffer.from(JSON.stringify({ error: "Not Found", message: error.message })),
  };
}

/** An answer that is passed on to everyone waiting for it but never kept (an error, a page of another form). */
class PassedOn extends Error {
  constructor(readonly answer: UpstreamAnswer) {
    super(`passed on: ${answer.status}`);
  }
}

function asAnswer(cached: CachedAnswer): UpstreamAnswer {
  return {
    status: cached.status,
    headers: new Headers({ "content-type": cached.contentType }),
    body: Buffer.from(cached.body),
  };
}

/**
 * Reads the batchers do not cover, through the add-in's own query runner: a fresh cached answer, else one
 * coalesced request whose answer is kept (a "not found" too), else, when the service cannot be reached, the
 * last answer kept. The key is built from the parsed request (operation, account, rebuilt target and body),
 * never from its arriving spelling; the relay checks a person's access to the account or comp set before it
 * reads, so an answer is only ever served to someone allowed to see it.
 */
export class CachedReads {
  private readonly runner: QueryRunner;

  constructor(
    private readonly upstream: Upstream,
    private readonly stats: RelayStats,
    private readonly now: () => number = Date.now,
  ) {
    this.runner = upstream.data.queries;
  }

  /** What decides a read's answer: the parsed request (operation, account, rebuilt target and body). */
  private identityOf(request: OperationRequest): QueryIdentity {
    const { operation } = request;
    const kind = operation.cacheKind;
    if (!kind) throw new Error(`${operation.operationId} is not a cached read`);
    return {
      kind,
      accountId: request.accountId,
      endpoint: operation.operationId,
      params: { target: upstreamTarget(request), body: upstreamBody(request) ?? null },
      // A forecast's window starts at the current month: a new month is a new question.
      period: kind === "forecast" ? new Date(this.now()).toISOString().slice(0, 7) : undefined,
    };
  }

  /** The fresh cached answer of a read, if there is one; never asks the service. */
  async peek(request: OperationRequest): Promise<UpstreamAnswer | undefined> {
    const cached = await this.runner.cache.get<CachedAnswer | object>(
      this.runner.key(this.identityOf(request)),
    );
    if (!cached?.fresh || !("status" in cached.value)) return undefined;
    return asAnswer(cached.value);
  }

  async read(
    request: OperationRequest,
    /** The client's (`request.clientSignal`): the read stops when the last of those waiting for it has gone. */
    clientSignal: AbortSignal | undefined,
    onFetched?: (answer: UpstreamAnswer) => Promise<void>,
  ): Promise<UpstreamAnswer> {
    const load = async (signal: AbortSignal): Promise<CachedAnswer> => {
      const answer = await this.upstream.send(request, signal);
      if (!isCacheableAnswer(request, answer)) throw notFoundOf(answer) ?? new PassedOn(answer);
      await onFetched?.(answer);
      return {
        status: answer.status,
        contentType: answer.headers.get("content-type") ?? "application/json",
        body: answer.body.toString("utf8"),
      };
    };
    try {
      // The read goes on while any of the people waiting for it is still there; the last to leave ends it.
      const fetched = await this.runner.queryWith(this.identityOf(request), load, {
        signal: clientSignal,
      });
      const fromService = fetched.source === "network";
      await this.stats.cacheLookups(fromService ? 0 : 1, fromService ? 1 : 0);
      return asAnswer(fetched.value);
    } catch (error) {
      if (error instanceof PassedOn) {
        await this.stats.cacheLookups(0, 1);
        return error.answer;
      }
      if (error instanceof ApiError && error.kind === "not_found") {
        // The runner's kept "not found" carries no status: this one came from the cache.
        const kept = error.details.status === undefined;
        await this.stats.cacheLookups(kept ? 1 : 0, kept ? 0 : 1);
        return notFoundAnswer(error);
      }
      throw error;
    }
  }
}
