/**
 * How a cell's value reads in the grid under its number format: the format a function's formatted number
 * carries, else the cell's own. Only the formats the add-in writes matter (dates, percentages, fixed decimals,
 * thousands, a currency sign or quoted text around the number); everything else shows as General.
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

/** The text a format puts before and after its digits: "$" of "$#,##0.00", "%" of '0.00"%"'. */
function affixes(format: string): { prefix: string; suffix: string } {
  const first = format.search(/[0#]/);
  const last = Math.max(format.lastIndexOf("0"), format.lastIndexOf("#"));
  const literal = (part: string) => part.replace(/"([^"]*)"/g, "$1").replace(/[\\]/g, "");
  return { prefix: literal(format.slice(0, first)), suffix: literal(format.slice(last + 1)) };
}

function digits(magnitude: number, digitsFormat: string): string {
  const decimals = decimalsOf(digitsFormat);
  return digitsFormat.includes(",")
    ? magnitude.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })
    : magnitude.toFixed(decimals);
}

export function displayText(cell: Cell | undefined): string {
  if (!cell) return "";
  const { value } = cell;
  const format = cell.valueFormat ?? cell.numberFormat ?? "General";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value !== "number") return value;
  const unquoted = format.replace(/"[^"]*"/g, "");
  if (/[yd]/i.test(unquoted) || /m+[/-]/i.test(unquoted)) return asDate(value, format);
  if (/[0#]/.test(unquoted)) {
    const { prefix, suffix } = affixes(format);
    const scaled = unquoted.includes("%") ? value * 100 : value;
    const digitsFormat = unquoted.replace(/[^0#,.]/g, "");
    // Excel puts the minus before a currency sign: -$5.50.
    return `${scaled < 0 ? "-" : ""}${prefix}${digits(Math.abs(scaled), digitsFormat)}${suffix}`;
  }
  return String(Number.isInteger(value) ? value : Number(value.toPrecision(12)));
}
