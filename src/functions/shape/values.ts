/** One service value as a cell shows it: ISO dates as Excel serials (usable in date arithmetic), null as "". */
import { isoToSerial } from "../../excel/excelDates";
import { cellValue, type CellValue } from "./table";

export function outputValue(value: unknown): CellValue {
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) return isoToSerial(value) ?? value;
  return cellValue(value);
}
