import { exploreMarketsReader } from "../api/readers/serviceReaders";
import { readAnswer } from "../api/readers/answerForm";
import { ApiError } from "../api/errors";
import { operationById } from "../api/operations";
import type { components, operations } from "../api/schema";
import { canonicalJson } from "./cacheKey";
import { BatchedQuery } from "./batchedQuery";
import type { BatchSchedule } from "./keyedBatcher";
import type { CacheKind } from "./cachePolicy";
import { sendOperation } from "./endpoints";
import type { QueryRunner } from "./queryRunner";

const EXPLORE_MARKETS = operationById("exploreMarkets");

export type ExploreMarketsBody = NonNullable<
  operations["exploreMarkets"]["requestBody"]
>["content"]["application/json"];
export type MarketAttributes = components["schemas"]["CompareMarketAttributes"];
export type MarketGeoType = MarketAttributes["geo_type"];

/** What must be equal for boundaries to share one /explore_markets call. */
export interface MarketOptions {
  /**
   * The boundaries' type, when the caller knows it. Without it the contract returns named boundaries of
   * either market type (MSA or submarket), so boundaries of both kinds share one call.
   */
  geoType?: MarketGeoType;
  /** Restricts which properties feed the aggregates. */
  propertyFilters?: ExploreMarketsBody["property_filters"];
}

export interface MarketGroup {
  accountId: number;
  geoType: MarketGeoType | undefined;
  propertyFilters: ExploreMarketsBody["property_filters"];
}

export function marketGroup(accountId: number, options: MarketOptions): { key: string; group: MarketGroup } {
  const group = { accountId, geoType: options.geoType, propertyFilters: options.propertyFilters };
  return { key: canonicalJson(group), group };
}

/**
 * The body of one batched call: the named boundaries, ranked by property count, all of them. The team relay
 * reads a body as batchable when it is exactly this for its own boundaries.
 */
export function exploreMarketsBody(group: MarketGroup, ids: readonly number[]): ExploreMarketsBody {
  return {
    account_id: group.accountId,
    market_filters: { geo_type: group.geoType, geo_boundary_ids: [...ids] },
    property_filters: group.propertyFilters,
    sort: "property_count_total",
    sort_direction: "desc",
    limit: ids.length,
  };
}

/**
 * Market metrics for many boundaries with the same options go out as one /explore_markets call per
 * `maxMarkets` boundaries (`market_filters.geo_boundary_ids`, `limit` = their count). A boundary the service
 * does not return (unknown, not a market, or not of the type asked) fails its own callers with not_found.
 */
export function exploreMarketsBatcher(
  runner: QueryRunner,
  settings: { maxMarkets: number; schedule: BatchSchedule },
): BatchedQuery<MarketGroup, number, MarketAttributes> {
  return new BatchedQuery(
    {
      maxPerCall: settings.maxMarkets,
      schedule: settings.schedule,
      itemId: (id) => String(id),
      cacheKey: (group, id) =>
        runner.key({
          kind: EXPLORE_MARKETS.cacheKind as CacheKind,
          accountId: group.accountId,
          endpoint: EXPLORE_MARKETS.path,
          params: { geo_boundary_id: id, geo_type: group.geoType, property_filters: group.propertyFilters },
        }),
      fetch: async (group, ids, signal) => {
        const answer = await runner.network(
          (context) =>
            readAnswer(
              exploreMarketsReader,
              sendOperation(runner.client.api, EXPLORE_MARKETS, {
                ...context,
                body: exploreMarketsBody(group, ids),
              }),
            ),
          signal,
        );
        return new Map(answer.data.map((market) => [String(market.attributes.id), market.attributes]));
      },
      notFound: (group, id) =>
        new ApiError(
          "not_found",
          group.geoType
            ? `Boundary ${id} has no market metrics as a ${group.geoType} market.`
            : `Boundary ${id} has no market metrics (markets are MSAs and submarkets).`,
        ),
    },
    runner,
  );
}
