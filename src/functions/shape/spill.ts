/**
 * From a shaped table (src/excel's TableData: typed columns, dates as serials, nulls as "") to what a spilled
 * formula returns. Formula spills head their columns with the service's field names by default (the names the
 * `field` and `columns` arguments take, so a sheet can look columns up by them), or with readable names when the
 * formula asks (args/headers.ts).
 */
import { ApiError } from "../../api/errors";
import type { CellValue, TableData } from "../../tables/tableData";
import { headerOf, type Headers } from "../args/headers";
import { readFieldName } from "../args/fieldVocabulary";
import { resultCell, type ResultCell } from "./dataTypes";

/** Each cell is formatted by its column's kind where the host takes formatted numbers (see dataTypes.ts). */
export function spillFromTable(
  table: TableData,
  emptyReason: string,
  headers: Headers = { choice: "ids" },
): ResultCell[][] {
  if (table.rows.length === 0) throw new ApiError("not_found", emptyReason);
  const kinds = table.columns.map((column) => column.kind);
  return [
    table.columns.map((column) => headerOf(column.field, headers)),
    ...table.rows.map((row) => row.map((value, index) => resultCell(value, kinds[index] ?? "text"))),
  ];
}

/**
 * Keeps the requested columns, in the order asked, each by its name or a word the contract gives it
 * (args/fieldVocabulary.ts); an unknown one is a #VALUE! naming it.
 */
export function selectColumns(table: TableData, fields: readonly string[], argument: string): TableData {
  if (fields.length === 0) return table;
  const index = new Map(table.columns.map((column, position) => [column.field.toLowerCase(), position]));
  const known = table.columns.map((column) => column.field);
  const positions = fields.map((field) => {
    const position = index.get(field.toLowerCase());
    if (position !== undefined) return position;
    // With no rows the columns are unknown, so nothing can be checked: the empty-result message says more.
    if (table.rows.length === 0) return -1;
    const named = readFieldName(field, known, `${argument}: there is no column "${field}"`);
    return index.get(named.toLowerCase()) as number;
  });
  if (positions.includes(-1)) return { columns: [], rows: [] };
  return {
    columns: positions.map((position) => table.columns[position] as TableData["columns"][number]),
    rows: table.rows.map((row) => positions.map((position) => row[position] as CellValue)),
  };
}
