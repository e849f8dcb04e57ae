/**
 * The fewest requests a workbook can need under the contract's batch limits, computed from its description
 * alone: what any client, however clever, must send with an empty cache.
 *
 * - Property fields: bulk details takes up to MAX_BULK_DETAILS_IDS ids per call, so one call per that many
 *   distinct ids of an account, whatever the fields.
 * - Market metrics: /explore_markets compares one geo type per call (MSAs or submarkets) and up to
 *   MAX_EXPLORE_MARKETS boundaries, so one call per geo type per that many distinct boundaries. The floor
 *   knows each boundary's geo type; a formula given only an id does not (see the benchmark's findings).
 * - Forecasts: one call per target (property or boundary) carrying up to MAX_FORECAST_AGGREGATIONS distinct
 *   fields (the description's forecast cells all use the default aggregation, interval and window).
 * - Units, market surveys and narratives: one call per distinct request; the contract batches none of them.
 */
import {
  MAX_BULK_DETAILS_IDS,
  MAX_EXPLORE_MARKETS,
  MAX_FORECAST_AGGREGATIONS,
} from "../../src/api/contractLimits";
import type { Workbook } from "./referenceWorkbook";

/** Sandbox route paths (as its request counters name them), so floor and measurement compare per endpoint. */
export const ENDPOINTS = {
  bulkDetails: "/v1/properties/bulk_details",
  exploreMarkets: "/v1/explore_markets",
  propertyForecast: "/v1/properties/:property_id/forecasts",
  boundaryForecast: "/v1/geo_boundary/:geo_boundary_id/forecasts",
  units: "/v1/comp_sets/:comp_set_id/units",
  survey: "/v1/comp_sets/:comp_set_id/market_survey",
  narratives: "/v1/markets/narratives",
} as const;

export type Endpoint = (typeof ENDPOINTS)[keyof typeof ENDPOINTS];

export interface RequestFloor {
  total: number;
  byEndpoint: Record<Endpoint, number>;
}

/** Adds `item` to the set kept under `key`. */
function collect(groups: Map<string, Set<string>>, key: string, item: string): void {
  const members = groups.get(key) ?? new Set<string>();
  members.add(item);
  groups.set(key, members);
}

function callsFor(groups: Map<string, Set<string>>, perCall: number): number {
  let calls = 0;
  for (const members of groups.values()) calls += Math.ceil(members.size / perCall);
  return calls;
}

export function requestFloor(workbook: Workbook): RequestFloor {
  const account = String(workbook.accountId);
  const propertyIds = new Map<string, Set<string>>();
  const marketIds = new Map<string, Set<string>>();
  const propertyForecasts = new Map<string, Set<string>>();
  const boundaryForecasts = new Map<string, Set<string>>();
  const unitLists = new Set<number>();
  const surveys = new Set<number>();
  const narratives = new Set<number>();
  for (const cell of workbook.cells) {
    switch (cell.fn) {
      case "PROPERTY":
        for (const id of cell.ids) collect(propertyIds, account, String(id));
        break;
      case "MARKET":
        // Boundaries given by id need no type: MSAs and submarkets share a call (openapi.yaml, explore_markets).
        collect(marketIds, account, String(cell.boundary.id));
        break;
      case "FORECAST":
        for (const field of cell.fields) collect(propertyForecasts, String(cell.propertyId), field);
        break;
      case "GEOFORECAST":
        for (const field of cell.fields) collect(boundaryForecasts, String(cell.boundaryId), field);
        break;
      case "UNITS":
        unitLists.add(cell.compSetId);
        break;
      case "SURVEY":
        surveys.add(cell.compSetId);
        break;
      case "NARRATIVE":
        // Every section comes in the one narrative of the boundary.
        narratives.add(cell.boundaryId);
        break;
    }
  }
  const byEndpoint: Record<Endpoint, number> = {
    [ENDPOINTS.bulkDetails]: callsFor(propertyIds, MAX_BULK_DETAILS_IDS),
    [ENDPOINTS.exploreMarkets]: callsFor(marketIds, MAX_EXPLORE_MARKETS),
    [ENDPOINTS.propertyForecast]: callsFor(propertyForecasts, MAX_FORECAST_AGGREGATIONS),
    [ENDPOINTS.boundaryForecast]: callsFor(boundaryForecasts, MAX_FORECAST_AGGREGATIONS),
    [ENDPOINTS.units]: unitLists.size,
    [ENDPOINTS.survey]: surveys.size,
    [ENDPOINTS.narratives]: narratives.size,
  };
  const total = Object.values(byEndpoint).reduce((sum, calls) => sum + calls, 0);
  return { total, byEndpoint };
}
