import { marketGeoTypeValues, type components, type operations } from "../../src/api/schema";
import { isOneOf } from "../../src/api/enumValues";
import { callerOf, inputOf, type OperationHandlers, type SandboxContext } from "../context";
import { tierAtLeast, type Tier } from "../../src/api/tiers";
import { numericFields } from "../contract/schemaFields";
import { inSentScale, tieredFields } from "../contract/sentScale";
import type { Boundary } from "../data/geography";
import { boundaryWords } from "../data/boundaryNames";
import { boundaryMarket, marketAttributes, type MarketAttributes } from "../data/marketMetrics";
import { propertyPredicate } from "../data/propertyFilters";
import { sendBadRequest } from "../http/errors";
import { shapeOf } from "../variant";

type ExploreMarketsBody = NonNullable<
  operations["exploreMarkets"]["requestBody"]
>["content"]["application/json"];

/** The body as the request validator hands it on: the contract's type, its defaults filled in. */
type ExploreBody = ExploreMarketsBody & {
  sort: NonNullable<ExploreMarketsBody["sort"]>;
  sort_direction: NonNullable<ExploreMarketsBody["sort_direction"]>;
  limit: NonNullable<ExploreMarketsBody["limit"]>;
};

const SORTABLE = new Set(numericFields("CompareMarketAttributes"));

/** `{metric}_gte` / `{metric}_lte` members of market_filters as [metric, bound, value]. */
function metricBounds(filters: Record<string, unknown>): [string, "gte" | "lte", number][] {
  return Object.entries(filters).flatMap(([name, value]) => {
    const match = /^(.*)_(gte|lte)$/.exec(name);
    return match && typeof value === "number" ? [[match[1] ?? "", match[2] as "gte" | "lte", value]] : [];
  });
}

type MarketRecord = components["schemas"]["CompareMarketAttributes"];

/** A market's figures as its compare_market record; only MSAs and submarkets are markets. */
function marketRecord(attributes: MarketAttributes): MarketRecord {
  const { geo_type } = attributes;
  if (!isOneOf(marketGeoTypeValues, geo_type)) throw new Error(`Boundary ${attributes.id} is not a market`);
  return { ...attributes, geo_type };
}

/** A metric of a record by the name a request gave (sort fields and bounds name any numeric attribute). */
function metricOf(record: Readonly<Record<string, unknown>>, metric: string): unknown {
  return record[metric];
}

function passesBounds(attributes: MarketRecord, bounds: [string, "gte" | "lte", number][]): boolean {
  return bounds.every(([metric, bound, limit]) => {
    const value = metricOf(attributes, metric);
    if (typeof value !== "number") return false;
    return bound === "gte" ? value >= limit : value <= limit;
  });
}

/**
 * What a caller receives of each market: below the pro tier (the live service's Explore Pro) its identity and
 * headline figures, as every metric whose `x-tier` in the contract is above the caller's is null. The live service
 * answers such callers with limited data, not an error (api-notes, "Observed on the live service"); which fields
 * it keeps is not known.
 */
function asSeenBy(tier: Tier, attributes: MarketRecord): MarketRecord {
  const tiered = tieredFields("CompareMarketAttributes");
  return Object.fromEntries(
    Object.entries(attributes).map(([field, value]) => {
      const needed = tiered.get(field);
      return [field, needed === undefined || tierAtLeast(tier, needed) ? value : null];
    }),
  ) as MarketRecord;
}

/** POST /explore_markets: compare MSAs or submarkets on aggregated metrics. */
export function exploreMarketHandlers(context: SandboxContext): Pick<OperationHandlers, "exploreMarkets"> {
  return {
    exploreMarkets: (request, reply) => {
      const body = inputOf(request).body as ExploreBody;
      if (!SORTABLE.has(body.sort)) {
        return sendBadRequest(reply, `Invalid sort parameter: ${body.sort}`);
      }
      const dataset = context.dataset();
      const today = context.clock.today();
      const marketFilters = body.market_filters ?? {};
      // Named boundaries are returned whatever their market type; otherwise the type defaults to MSA.
      const geoType = marketFilters.geo_type ?? (marketFilters.geo_boundary_ids ? undefined : "MSA");
      let msaIndex: number | undefined;
      if (marketFilters.msa_geo_boundary_id !== undefined) {
        const msa = dataset.boundary(marketFilters.msa_geo_boundary_id);
        if (msa?.geoType !== "MSA") {
          return sendBadRequest(
            reply,
            `market_filters[msa_geo_boundary_id]: ${marketFilters.msa_geo_boundary_id} is not an MSA boundary`,
          );
        }
        msaIndex = msa.msaIndex;
      }
      const ids = marketFilters.geo_boundary_ids ? new Set(marketFilters.geo_boundary_ids) : undefined;
      const states = marketFilters.states ? new Set(marketFilters.states) : undefined;
      const markets = dataset.geography.boundaries.filter(
        (boundary: Boundary) =>
          (geoType === undefined
            ? isOneOf(marketGeoTypeValues, boundary.geoType)
            : boundary.geoType === geoType) &&
          (!ids || ids.has(boundary.id)) &&
          (msaIndex === undefined || boundary.msaIndex === msaIndex) &&
          (!states || boundary.states.some((state) => states.has(state))),
      );
      const propertyFilters = body.property_filters ?? {};
      const filtered = Object.keys(propertyFilters).length > 0;
      const matches = propertyPredicate(propertyFilters);
      const bounds = metricBounds(marketFilters);
      const direction = body.sort_direction === "asc" ? 1 : -1;
      const { percentScale, boundaryNames } = shapeOf(context.options.variant);
      const rows = markets
        .map((boundary) => ({
          ...(filtered
            ? marketAttributes(
                dataset,
                boundary,
                (dataset.propertiesByBoundary.get(boundary.id) ?? []).filter(matches),
                today,
              )
            : boundaryMarket(dataset, boundary, today)),
          ...boundaryWords(boundary, boundaryNames),
        }))
        .map((attributes) => inSentScale("CompareMarketAttributes", marketRecord(attributes), percentScale))
        .filter((attributes) => passesBounds(attributes, bounds))
        .sort((a, b) => {
          const x = metricOf(a, body.sort);
          const y = metricOf(b, body.sort);
          if (typeof x !== "number" || typeof y !== "number") {
            return (
              (typeof x === "number" ? -1 : 0) + (typeof y === "number" ? 1 : 0) ||
              Number(a.id) - Number(b.id)
            );
          }
          return (x - y) * direction || Number(a.id) - Number(b.id);
        })
        .slice(0, body.limit);
      const tier = callerOf(request).client.tier;
      return {
        data: rows.map((attributes) => ({
          id: String(attributes.id),
          type: "compare_market" as const,
          attributes: asSeenBy(tier, attributes),
        })),
      };
    },
  };
}
