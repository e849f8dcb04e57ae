import type { CacheKind } from "../../src/data/cachePolicy";
import { requestKey } from "../../src/data/cacheKey";
import { RequestCoalescer } from "../../src/data/requestCoalescer";
import type { ResponseCache } from "../../src/data/responseCache";
import type { RelayStats } from "../status/relayStats";
import type { Upstream, UpstreamAnswer } from "../upstream/upstream";

/** A cached service answer: enough to send it again as it came. */
interface CachedAnswer {
  status: number;
  contentType: string;
  body: string;
}

const KIND_OF_PATH: [RegExp, CacheKind][] = [
  [/^\/v1\/accounts\/\d+\/comp_sets$/, "comp_sets"],
  [/^\/v1\/comp_sets\/\d+\/market_survey$/, "market_survey"],
  [/^\/v1\/comp_sets\/\d+\/units$/, "units"],
  [/^\/v1\/comp_sets\/\d+\/floor_plans$/, "floor_plans"],
  [/^\/v1\/geo_boundaries\/search$/, "geo_search"],
  [/^\/v1\/geo_boundaries\/properties$/, "property_search"],
  [/^\/v1\/properties\/lookup$/, "lookup"],
  [/^\/v1\/properties\/bulk_details$/, "property"],
  [/^\/v1\/markets\/narratives$/, "narrative"],
  [/^\/v1\/explore_markets$/, "market"],
  [/^\/v1\/(properties|geo_boundary)\/\d+\/forecasts$/, "forecast"],
  [/^\/v1\/accounts$/, "accounts"],
];

/** The cache kind of a read, which decides its freshness; undefined for what is never cached. */
export function readKind(path: string): CacheKind | undefined {
  return KIND_OF_PATH.find(([pattern]) => pattern.test(path))?.[1];
}

function canonicalQuery(query: string): string {
  const params = new URLSearchParams(query);
  params.sort();
  return params.toString();
}

/**
 * Reads the batchers do not cover, cached whole by request (account, path, query, body) and coalesced while
 * in flight. The key names the account, and the relay checks a person's access to that account before it
 * looks, so an answer is only ever served to someone allowed to see it.
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
    kind: CacheKind,
    accountId: number | undefined,
    method: string,
    path: string,
    query: string,
    body: string | undefined,
    onFetched?: (answer: UpstreamAnswer) => Promise<void>,
  ): Promise<UpstreamAnswer> {
    const key = requestKey({
      kind,
      caller: this.caller,
      accountId,
      endpoint: `${method} ${path}`,
      params: { query: canonicalQuery(query), body: body ?? null },
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
      const answer = await this.upstream.forward(method, `${path}${query ? `?${query}` : ""}`, body);
      if (answer.status === 200) {
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
