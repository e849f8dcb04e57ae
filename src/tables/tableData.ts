import { factsOf, labelOf } from "../api/fieldFacts";
import { inferColumnKind, type ColumnKind } from "./columnKinds";
import { isoToSerial } from "./excelDates";
import { asLiteralText } from "./literalText";

/** What Excel accepts in `Range.values`. Empty cells are "" (a null would mean "leave this cell as it is"). */
export type CellValue = string | number | boolean;

export interface TableColumn {
  /** The service's field name, kept so code can find a column whatever its header says. */
  readonly field: string;
  /** What the header row shows. */
  readonly header: string;
  readonly kind: ColumnKind;
}

/** A table ready for the workbook: typed columns and rows of Excel cell values in column order. */
export interface TableData {
  readonly columns: readonly TableColumn[];
  readonly rows: readonly (readonly CellValue[])[];
}

const WORD_OVERRIDES: Readonly<Record<string, string>> = {
  id: "ID",
  ids: "IDs",
  ner: "NER",
  psf: "PSF",
  pct: "%",
  sq: "Sq",
  ft: "Ft",
  sqft: "Sq Ft",
  yoy: "YoY",
  msa: "MSA",
  mtd: "MTD",
  url: "URL",
  trucomp: "TruComp",
};

const AMENITY_PREFIX = "amenities_";

/**
 * A column's header: the contract's readable name of the field (`x-field-labels`: "Property type", "TruComp"),
 * else its name in words. Underwriters read the header, code reads `field`.
 */
export function columnHeader(field: string): string {
  return factsOf(field) && !field.startsWith(AMENITY_PREFIX) ? labelOf(field) : headerForField(field);
}

/** "avg_rent_per_sq_ft" -> "Avg Rent Per Sq Ft", for a column the contract does not name. */
export function headerForField(field: string): string {
  if (field.startsWith(AMENITY_PREFIX)) return `Amenities: ${field.slice(AMENITY_PREFIX.length)}`;
  return field
    .split(/[_\s]+/)
    .filter((word) => word !== "")
    .map((word) => WORD_OVERRIDES[word.toLowerCase()] ?? word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** Whole things (units, stories, days, years): an average of them is shown as one of them, 112 units, 1989. */
const WHOLE_KINDS: ReadonlySet<ColumnKind> = new Set(["integer", "year"]);

/** Turns any parsed or API value into what the column's cells should hold. */
export function toCellValue(value: unknown, kind: ColumnKind): CellValue {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "";
    return WHOLE_KINDS.has(kind) ? Math.round(value) : value;
  }
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "boolean") return value;
  if (value instanceof Date) return isoToSerial(value.toISOString()) ?? "";
  if (typeof value === "string") {
    const serial = kind === "date" || kind === "timestamp" ? isoToSerial(value) : undefined;
    return serial ?? asLiteralText(value);
  }
  if (Array.isArray(value)) return asLiteralText(value.map((item) => readableText(item)).join("; "));
  return asLiteralText(JSON.stringify(value));
}

/**
 * One item of a list in one cell: its `display_text` when the service wrote one, else "name (key value, ...)"
 * (a fee: "Trash (amount 12, frequency monthly, required true)"), else its JSON.
 */
function readableText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  const { display_text: displayText, name, ...rest } = value as Record<string, unknown>;
  if (typeof displayText === "string") return displayText;
  if (typeof name !== "string") return JSON.stringify(value);
  const details = Object.entries(rest)
    .filter(([, detail]) => detail !== null && detail !== undefined && typeof detail !== "object")
    .map(([key, detail]) => `${key.replace(/_/g, " ")} ${String(detail)}`);
  return details.length === 0 ? name : `${name} (${details.join(", ")})`;
}

/** How many rows kind inference looks at: enough to see every shape a column takes, cheap on 100,000 rows. */
const KIND_SAMPLE_ROWS = 2000;

function* columnSample(rows: readonly (readonly unknown[])[], index: number): Generator<unknown> {
  const step = Math.max(1, Math.floor(rows.length / KIND_SAMPLE_ROWS));
  for (let r = 0; r < rows.length; r += step) yield rows[r]?.[index];
}

/**
 * Shapes parsed rows (an export file, a flattened API response) into a table: infers each column's kind,
 * converts ISO dates to Excel serials, and empties nulls.
 */
export function shapeTable(fields: readonly string[], rows: readonly (readonly unknown[])[]): TableData {
  const columns = fields.map((field, index) => ({
    field,
    header: columnHeader(field),
    kind: inferColumnKind(field, columnSample(rows, index)),
  }));
  const kinds = columns.map((column) => column.kind);
  const shaped = rows.map((row) => kinds.map((kind, index) => toCellValue(row[index], kind)));
  return { columns, rows: shaped };
}
