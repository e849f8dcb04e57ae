/**
 * One service value as a cell shows it: ISO dates as Excel serials (usable in date arithmetic), null as ""
 * (Excel shows a null inside a returned array as 0 on some hosts), lists as readable text. The same
 * conversion the workbook exports use (src/tables/tableData.ts), so a formula and an export agree.
 */
import { isoToSerial } from "../../tables/excelDates";
import { toCellValue, type CellValue } from "../../tables/tableData";

export function outputValue(value: unknown): CellValue {
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) return isoToSerial(value) ?? value;
  return toCellValue(value, "text");
}
