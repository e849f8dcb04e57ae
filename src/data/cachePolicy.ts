import type { CacheKind } from "../api/operations";

export type { CacheKind } from "../api/operations";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * How long each kind stays fresh. Property and market figures are collected daily; comp set listings move
 * within a day; boundaries and narratives change rarely. Forecast keys also carry the current month (the
 * forecast window starts there), so a new month is a new key whatever the TTL says.
 */
export const DEFAULT_TTL_MS: Record<CacheKind, number> = {
  accounts: HOUR,
  property: DAY,
  market: DAY,
  forecast: DAY,
  geo_search: 7 * DAY,
  property_search: DAY,
  lookup: DAY,
  comp_sets: HOUR,
  market_survey: 6 * HOUR,
  units: 6 * HOUR,
  floor_plans: 6 * HOUR,
  narrative: 7 * DAY,
};
