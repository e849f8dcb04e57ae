/**
 * The options RENT.MARKETS takes, and what its ranking ones (sort, direction, limit) allow and default to, from
 * the contract's explore markets request. The function reads them and the pane's Insert tab offers them, so the
 * two cannot differ.
 */
import { bodyDefaults, bodyRange } from "../../api/requestFacts";
import { sortDirectionValues } from "../../api/schema";
import { PROPERTY_FILTER_OPTIONS } from "./propertyFilters";

/** How the markets are ranked and how many are shown: a metric to sort by, its direction, the count. */
export const MARKETS_RANKING_OPTIONS = ["sort", "direction", "limit"] as const;
export type MarketsRankingOption = (typeof MARKETS_RANKING_OPTIONS)[number];

export const MARKETS_OPTIONS = [
  "geo_type",
  ...MARKETS_RANKING_OPTIONS,
  "states",
  "msa_id",
  "boundary_ids",
  "account",
  ...PROPERTY_FILTER_OPTIONS,
] as const;

/** What explore markets takes for a direction or limit left out. */
export const MARKETS_DEFAULTS = bodyDefaults("exploreMarkets");
/** The range of its limit. */
export const MARKETS_LIMIT = bodyRange("exploreMarkets", "limit");
export const MARKETS_DIRECTIONS = sortDirectionValues;
