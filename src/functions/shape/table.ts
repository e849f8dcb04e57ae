/**
 * Shapes results into what a spilled formula returns: a header row, then one row per record. Excel shows
 * a null inside a returned array as 0 on some hosts, so a missing value becomes "" (an empty-looking cell).
 * An empty result is not an empty spill but #N/A with the reason.
 */
import { ApiError } from "../../api/errors";

export type CellValue = string | number | boolean;

export function cellValue(value: unknown): CellValue {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? value : "";
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map((item) => String(cellValue(item))).join(", ");
  return JSON.stringify(value);
}

export interface ColumnSpec<T> {
  header: string;
  value: (record: T) => unknown;
}

export function spillTable<T>(
  records: readonly T[],
  columns: readonly ColumnSpec<T>[],
  emptyReason: string,
): CellValue[][] {
  if (records.length === 0) throw new ApiError("not_found", emptyReason);
  return [
    columns.map((column) => column.header),
    ...records.map((record) => columns.map((column) => cellValue(column.value(record)))),
  ];
}
