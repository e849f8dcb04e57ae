/**
 * How a cell's value reads in the grid under its number format. Only the formats the add-in writes matter
 * (dates, percentages, fixed decimals, thousands); everything else shows as General.
 */
import type { Cell } from "../workbook/workbook";

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

function asDate(serial: number, format: string): string {
  const date = new Date(EXCEL_EPOCH_MS + Math.round(serial * 86_400_000));
  const iso = date.toISOString();
  return /h|s/i.test(format.replace(/"[^"]*"/g, ""))
    ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}`
    : iso.slice(0, 10);
}

function decimalsOf(format: string): number {
  return /\.(0+)/.exec(format)?.[1]?.length ?? 0;
}

export function displayText(cell: Cell | undefined): string {
  if (!cell) return "";
  const { value } = cell;
  const format = cell.numberFormat ?? "General";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value !== "number") return value;
  const unquoted = format.replace(/"[^"]*"/g, "");
  if (/[yd]/i.test(unquoted) || /m+[/-]/i.test(unquoted)) return asDate(value, format);
  if (unquoted.includes("%")) return `${(value * 100).toFixed(decimalsOf(unquoted))}%`;
  if (/[0#]/.test(unquoted)) {
    const decimals = decimalsOf(unquoted);
    return unquoted.includes(",")
      ? value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })
      : value.toFixed(decimals);
  }
  return String(Number.isInteger(value) ? value : Number(value.toPrecision(12)));
}
