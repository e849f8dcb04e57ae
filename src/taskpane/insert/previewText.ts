/**
 * How a RENT function's answer reads in the Insert tab's preview: as the cell will show it. A formatted number
 * (the data-type result of hosts with CustomFunctionsRuntime 1.4) shows under its format ("$1,600.73", "91.87%"), an entity
 * card by its title, a table by its size; plain values as they are.
 */
import { NUMBER_FORMAT_BY_KIND, type ColumnKind } from "../../tables/columnKinds";

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

const KIND_BY_FORMAT = new Map(
  (Object.entries(NUMBER_FORMAT_BY_KIND) as [ColumnKind, string][]).map(([kind, format]) => [format, kind]),
);

const grouped = (value: number, decimals: number) =>
  value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

function isoOfSerial(serial: number): string {
  return new Date(EXCEL_EPOCH_MS + Math.round(serial * DAY_MS)).toISOString();
}

/** A number under one of the formats the add-in gives (src/tables/columnKinds.ts); any other shows as General. */
export function formattedText(value: number, numberFormat: string): string {
  const sign = value < 0 ? "-" : "";
  const magnitude = Math.abs(value);
  switch (KIND_BY_FORMAT.get(numberFormat)) {
    case "integer":
      return sign + grouped(magnitude, 0);
    case "number":
      return sign + grouped(magnitude, 2);
    case "currency":
      // Excel puts the minus before the currency sign: -$5.50.
      return `${sign}$${grouped(magnitude, 2)}`;
    case "percent":
      return `${sign}${(magnitude * 100).toFixed(2)}%`;
    case "year":
      return sign + magnitude.toFixed(0);
    case "miles":
      return `${sign}${magnitude.toFixed(2)} mi`;
    case "coordinate":
      return sign + magnitude.toFixed(6);
    case "date":
      return isoOfSerial(value).slice(0, 10);
    case "timestamp":
      return isoOfSerial(value).slice(0, 19).replace("T", " ");
    default:
      return String(value);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One cell's value as the preview shows it. */
export function cellText(value: unknown): string {
  if (isRecord(value)) {
    // A FormattedNumber (ExcelApi 1.16 to 1.18) or a Double with its numberFormat (from 1.19).
    if (
      (value.type === "FormattedNumber" || value.type === "Double") &&
      typeof value.basicValue === "number" &&
      typeof value.numberFormat === "string"
    ) {
      return formattedText(value.basicValue, String(value.numberFormat ?? "General"));
    }
    if (value.type === "Entity" && typeof value.text === "string") return value.text;
    if (typeof value.basicValue !== "undefined") return String(value.basicValue);
  }
  return String(value);
}

/** A whole answer: one cell as its text, a spill as "a table of R rows by C columns". */
export function answerText(value: unknown): string {
  if (!Array.isArray(value)) return cellText(value);
  const rows = value as unknown[][];
  if (rows.length === 1 && rows[0]?.length === 1) return cellText(rows[0][0]);
  return `a table of ${rows.length} rows by ${rows[0]?.length ?? 0} columns`;
}
