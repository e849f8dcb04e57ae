import { shapeTable, type TableData } from "./tableData";

/** Turns one nested field into flat columns: `{ column name: value }`. */
export type FieldFlattener = (value: unknown) => Readonly<Record<string, unknown>>;

export interface RecordsToTableOptions {
  /** Columns in this order first (the documented field order); any other field follows in first-seen order. */
  readonly columnOrder?: readonly string[];
  /** Fields that need their own flattening instead of the generic "parent_child" columns. */
  readonly flatteners?: Readonly<Record<string, FieldFlattener>>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** `{ exposure: { current: 5 } }` -> `{ exposure_current: 5 }`; arrays stay whole (one cell of text later). */
function flattenInto(target: Record<string, unknown>, prefix: string, value: Record<string, unknown>): void {
  for (const [key, inner] of Object.entries(value)) {
    const name = prefix === "" ? key : `${prefix}_${key}`;
    if (isPlainObject(inner)) flattenInto(target, name, inner);
    else target[name] = inner;
  }
}

export function flattenRecord(
  record: Readonly<Record<string, unknown>>,
  flatteners: Readonly<Record<string, FieldFlattener>> = {},
): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    const flatten = flatteners[key];
    if (flatten) Object.assign(flat, flatten(value));
    else if (isPlainObject(value)) flattenInto(flat, key, value);
    else flat[key] = value;
  }
  return flat;
}

/** Records of any service list (market survey items, floor plans, units) to a formatted table. */
export function recordsToTable(
  records: readonly Readonly<Record<string, unknown>>[],
  options: RecordsToTableOptions = {},
): TableData {
  const flat = records.map((record) => flattenRecord(record, options.flatteners));
  const seen = new Set<string>();
  for (const record of flat) for (const key of Object.keys(record)) seen.add(key);
  const ordered = (options.columnOrder ?? []).filter((field) => seen.has(field));
  const fields = [...ordered, ...[...seen].filter((field) => !ordered.includes(field))];
  return shapeTable(
    fields,
    flat.map((record) => fields.map((field) => record[field])),
  );
}
