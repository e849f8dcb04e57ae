import { recordsToTable } from "./records";
import type { TableData } from "./tableData";

/** A survey or floor plan record as the service sends it: flat fields plus nested groups. */
export type ServiceRecord = Readonly<Record<string, unknown>>;

/** Identity first, so each row reads as "which property" before its figures. */
const PROPERTY_FIRST = ["property_id", "property_name", "subject_property"];

/**
 * The market survey as one table: a row per property (`market_survey_items`), nested groups such as
 * `exposure` and the price breakdowns flattened into their own columns, and the comps' average
 * (`comp_average_column`) as a last row named "Comp average".
 */
export function marketSurveyToTable(
  items: readonly ServiceRecord[],
  compAverage?: ServiceRecord | null,
): TableData {
  const rows = compAverage ? [...items, { property_name: "Comp average", ...compAverage }] : items;
  return recordsToTable(rows, { columnOrder: PROPERTY_FIRST });
}

/** Floor plan rows (one per plan and collection day, as src/api/readers gives them) in the service's order. */
export function floorPlansToTable(rows: readonly ServiceRecord[]): TableData {
  return recordsToTable(rows, {
    columnOrder: [...PROPERTY_FIRST, "name", "collected_at", "bedroom_count", "bathroom_count"],
  });
}
