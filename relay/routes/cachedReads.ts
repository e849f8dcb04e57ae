import { requestKey } from "../../src/data/cacheKey";
import { RequestCoalescer } from "../../src/data/requestCoalescer";
import type { ResponseCache } from "../../src/data/responseCache";
import { upstreamBody, upstreamTarget, type OperationRequest } from "../../src/api/operations";
import type { RelayStats } from "../status/relayStats";
import type { Upstream, UpstreamAnswer } from "../upstream/upstream";

/** A cached service answer: enough to send it again as it came. */
interface CachedAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * Whether an answer is the operation's answer: a 200 of JSON holding the top-level properties the contract
 * requires. A maintenance page served with 200, an error or a truncated body is passed on but never kept.
 */
export function isCacheableAnswer(request: OperationRequest, answer: UpstreamAnswer): boolean {
  if (answer.status !== 200) return false;
  const contentType = answer.headers.get("content-type") ?? "";
  if (!/^application\/([a-z.+-]+\+)?json\b/i.test(contentType)) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body.toString("utf8"));
  } catch {
    return false;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return false;
  const required = request.operation.answer?.required ?? [];
  return required.every((name) => (parsed as Record<string, unknown>)[name] !== undefined);
}

/**
 * Reads the batchers do not cover, cached whole by request (operation, account, rebuilt target and body) and
 * coalesced while in flight. The key is built from the parsed request, never from its arriving spelling; the
 * relay checks a person's access to the account or comp set before it looks, so an answer is only ever served
 * to someone allowed to see it.
 */
export class CachedReads {
  private readonly coalescer = new RequestCoalescer();

  constructor(
    private readonly upstream: Upstream,
    private readonly cache: ResponseCache,
    private readonly stats: RelayStats,
    private readonly caller: string,
    private readonly now: () => number = Date.now,
  ) {}

  async read(
    request: OperationRequest,
    onFetched?: (answer: UpstreamAnswer) => Promise<void>,
  ): Promise<UpstreamAnswer> {
    const { operation } = request;
    const kind = operation.cacheKind;
    if (!kind) throw new Error(`${operation.operationId} is not a cached read`);
    const target = upstreamTarget(request);
    const body = upstreamBody(request);
    const key = requestKey({
      kind,
      caller: this.caller,
      accountId: request.accountId,
      endpoint: operation.operationId,
      params: { target, body: body ?? null },
      // A forecast's window starts at the current month: a new month is a new question.
      period: kind === "forecast" ? new Date(this.now()).toISOString().slice(0, 7) : undefined,
    });
    const cached = await this.cache.get<CachedAnswer>(key);
    if (cached?.fresh) {
      await this.stats.cacheLookups(1, 0);
      return {
        status: cached.value.status,
        headers: new Headers({ "content-type": cached.value.contentType }),
        body: Buffer.from(cached.value.body),
      };
    }
    await this.stats.cacheLookups(0, 1);
    return this.coalescer.run(key, undefined, async () => {
      const answer = await this.upstream.forward(operation.method, `/v1${target}`, body);
      if (isCacheableAnswer(request, answer)) {
        const value: CachedAnswer = {
          status: answer.status,
          contentType: answer.headers.get("content-type") ?? "application/json",
          body: answer.body.toString("utf8"),
        };
        await this.cache.setMany([{ key, value }]);
        await onFetched?.(answer);
      }
      return answer;
    });
  }
}
