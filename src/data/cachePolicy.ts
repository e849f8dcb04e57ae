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
  // A finished day's figures do not change: kept for good (until cleared or evicted for space).
  history: Number.POSITIVE_INFINITY,
  // A job older than this is past any bound RENT.HISTORY waits for one.
  history_job: DAY,
  // True of its cell until the cell is calculated again, which writes a new one.
  cell_as_of: Number.POSITIVE_INFINITY,
  // Until the service says otherwise (its next quota error) or the person signs out; the pane says when it was learnt.
  quota_standing: Number.POSITIVE_INFINITY,
};
