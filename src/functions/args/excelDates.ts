/**
 * Date arguments. Excel stores a date as the number of days since 1899-12-30 (see src/tables/excelDates.ts,
 * which turns the service's dates into serials on the way out); formulas may pass a serial or ISO text.
 */
import { ArgumentError } from "../cellErrors";
import { plainValue } from "./scalars";

const MS_PER_DAY = 86_400_000;
const EPOCH_MS = Date.UTC(1899, 11, 30);
/** 1900-03-01: before it the 1900 system's phantom 29 Feb 1900 shifts serials; we accept nothing earlier. */
const FIRST_SERIAL = 61;
const LAST_SERIAL = 2_958_465; // 9999-12-31

export function serialToIsoDate(serial: number): string {
  return new Date(EPOCH_MS + Math.floor(serial) * MS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * Reads a date argument: an Excel serial (a date cell or DATE(...)) or ISO text (YYYY-MM-DD). Returns the ISO
 * date the service wants. `argument` names the argument in the error message.
 */
export function readDate(value: unknown, argument: string): string {
  value = plainValue(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < FIRST_SERIAL || value > LAST_SERIAL) {
      throw new ArgumentError(`${argument} must be a date (a date cell, DATE(...) or text like 2026-01-31).`);
    }
    return serialToIsoDate(value);
  }
  if (typeof value === "string") {
    const text = value.trim();
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    if (match) {
      const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
      const date = new Date(Date.UTC(year, month - 1, day));
      if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) {
        return text;
      }
    }
  }
  throw new ArgumentError(`${argument} must be a date (a date cell, DATE(...) or text like 2026-01-31).`);
}
