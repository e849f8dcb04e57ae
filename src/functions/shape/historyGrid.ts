/**
 * A history's wide layout (historyLayout.ts): the long table turned round, one row per field and property (or
 * floor plan), one column per period headed by its date. Made from the long layout's shaped table, so both
 * layouts hold the same values, formatted the same way, from the same request.
 */
import { ApiError } from "../../api/errors";
import { EXCEL_MAX_COLUMNS } from "../../excel/sheetLimits";
import type { CellValue, TableData } from "../../tables/tableData";
import { headerOf, type Headers } from "../args/headers";
import { ArgumentError } from "../cellErrors";
import { resultCell, type ResultCell } from "./dataTypes";
import { HISTORY_KEY_COLUMNS, WIDE_FIELD_COLUMN, type HistoryFunction } from "./historyLayout";

/**
 * A wide grid needs a column per period: refused before anything is asked when a sheet has too few, rather than
 * spilling into #SPILL! or leaving periods out.
 */
export function checkWideColumns(fn: HistoryFunction, periods: number, interval: string): void {
  const columns = HISTORY_KEY_COLUMNS[fn].length + 1 + periods;
  if (columns > EXCEL_MAX_COLUMNS)
    throw new ArgumentError(
      `layout wide: ${periods.toLocaleString("en-US")} periods of a ${interval} need ` +
        `${columns.toLocaleString("en-US")} columns; a sheet has ${EXCEL_MAX_COLUMNS.toLocaleString("en-US")}. ` +
        `Use a longer interval, a shorter range, or layout long.`,
    );
}

/**
 * `keys... | field | period...` from the long table `date | keys... | fields...` (dates as serials): each field's
 * rows together, in the order the fields were asked, and within a field the keys in the long table's order. A
 * period the long table has no row for is an empty cell. `note` is added to the field column's header (a floor
 * plan history shorter than asked says which days it covers there, as the long layout's date header does).
 */
export function wideSpillFromTable(
  table: TableData,
  fn: HistoryFunction,
  emptyReason: string,
  headers: Headers,
  note?: string,
): ResultCell[][] {
  if (table.rows.length === 0) throw new ApiError("not_found", emptyReason);
  const keyCount = HISTORY_KEY_COLUMNS[fn].length;
  const keyColumns = table.columns.slice(1, 1 + keyCount);
  const fieldColumns = table.columns.slice(1 + keyCount);
  const periods = [...new Set(table.rows.map((row) => row[0] as number))].sort((a, b) => a - b);
  const keyed = new Map<
    string,
    { keys: readonly CellValue[]; byPeriod: Map<number, readonly CellValue[]> }
  >();
  for (const row of table.rows) {
    const keys = row.slice(1, 1 + keyCount);
    const id = JSON.stringify(keys);
    const entry = keyed.get(id) ?? { keys, byPeriod: new Map() };
    keyed.set(id, entry);
    entry.byPeriod.set(row[0] as number, row);
  }
  const fieldHeader = headers.choice === "names" ? "Field" : WIDE_FIELD_COLUMN;
  const header: ResultCell[] = [
    ...keyColumns.map((column) => headerOf(column.field, headers)),
    note === undefined ? fieldHeader : `${fieldHeader} (${note})`,
    ...periods.map((period) => resultCell(period, "date")),
  ];
  const rows = fieldColumns.flatMap((field, index) =>
    [...keyed.values()].map((entry): ResultCell[] => [
      ...entry.keys.map((value, key) => resultCell(value, keyColumns[key]?.kind ?? "text")),
      headerOf(field.field, headers),
      ...periods.map((period) => {
        const row = entry.byPeriod.get(period);
        return row === undefined ? "" : resultCell(row[1 + keyCount + index] as CellValue, field.kind);
      }),
    ]),
  );
  return [header, ...rows];
}
