/**
 * Values that carry their meaning. Where the host holds data types in custom functions' results
 * (CustomFunctionsRuntime 1.4, enabled by `allowCustomDataForDataTypeAny` in functions.json, which
 * custom-functions-metadata-plugin writes), a rent comes back as a number carrying its format that shows
 * "$1,890.00" and still adds up as 1890, and a whole record comes back as an entity card whose fields a formula
 * reads (`=A1.asking_rent`). Elsewhere cells get the plain values: Office 2024 and LTSC report ExcelApi 1.16
 * and more but not CustomFunctionsRuntime 1.4, and would show #VALUE! for a data type.
 *
 * The formats come from the one field catalogue the exported sheets use (src/tables/columnKinds.ts).
 */
import { NUMBER_FORMAT_BY_KIND, inferColumnKind, type ColumnKind } from "../../tables/columnKinds";
import { flattenRecord } from "../../tables/records";
import { hostSupports } from "../../excel/requirementSets";
import { shapeTable, type CellValue } from "../../tables/tableData";
import { outputValue } from "./values";

/** Kinds whose numbers read better formatted. Ids stay plain: they are fed to other functions as they are. */
const FORMATTED_KINDS: ReadonlySet<ColumnKind> = new Set([
  "integer",
  "number",
  "currency",
  "percent",
  "miles",
  "coordinate",
  "date",
  "timestamp",
]);

/** The requirement set that brought data types to custom functions (Custom Functions requirement sets). */
const DATA_TYPES_REQUIREMENT = ["CustomFunctionsRuntime", "1.4"] as const;
/** From ExcelApi 1.19 a Double carries its number format, and FormattedNumber is deprecated. */
const DOUBLE_FORMAT_REQUIREMENT = ["ExcelApi", "1.19"] as const;

/** Asked on each result: the runtime loads before Office is ready, and a test may change the answer. */
export function hostHoldsDataTypes(): boolean {
  return hostSupports(...DATA_TYPES_REQUIREMENT);
}

type FormattedCellValue = Excel.FormattedNumberCellValue | Excel.DoubleCellValue;

export type ResultCell = CellValue | FormattedCellValue | Excel.EntityCellValue;

function formattedNumber(value: number, kind: ColumnKind): FormattedCellValue {
  const numberFormat = NUMBER_FORMAT_BY_KIND[kind];
  return hostSupports(...DOUBLE_FORMAT_REQUIREMENT)
    ? { type: "Double", basicValue: value, numberFormat }
    : { type: "FormattedNumber", basicValue: value, numberFormat };
}

/** One cell of a result: a formatted number when the host takes them and the kind has a format worth showing. */
export function resultCell(value: CellValue, kind: ColumnKind): ResultCell {
  if (typeof value !== "number" || !FORMATTED_KINDS.has(kind) || !hostHoldsDataTypes()) return value;
  return formattedNumber(value, kind);
}

/** A single service value named by its field: the field's name (and the value) say its kind, as for a column. */
export function fieldCell(value: unknown, field: string): ResultCell {
  return resultCell(outputValue(value), inferColumnKind(field, [value]));
}

function entityProperty(value: CellValue, kind: ColumnKind): Excel.EntityPropertyType {
  if (typeof value === "number") {
    return FORMATTED_KINDS.has(kind) ? formattedNumber(value, kind) : { type: "Double", basicValue: value };
  }
  if (typeof value === "boolean") return { type: "Boolean", basicValue: value };
  return { type: "String", basicValue: value };
}

/** What a card shows for a field the caller's plan leaves out (an error value in a card carries no message). */
export const notInPlanText = (tier: string) => `Not in your plan (${tier})`;

/**
 * A record as an entity card: every field (nested ones flattened to "parent_child" as in exports) under its
 * service name, so `=A1.asking_rent` reads what `RENT.PROPERTY(id, "asking_rent")` returns. The fields the
 * caller's plan leaves out (`outOfPlan`: field -> tier) say "Not in your plan (tier)" rather than being absent or
 * blank, which would read as missing data.
 */
export function entityCard(
  record: Readonly<Record<string, unknown>>,
  titleField: string,
  outOfPlan: ReadonlyMap<string, string> = new Map(),
): Excel.EntityCellValue {
  const flat = flattenRecord(record);
  const fields = Object.keys(flat);
  const table = shapeTable(fields, [fields.map((field) => flat[field])]);
  const values = table.rows[0] ?? [];
  const properties: Record<string, Excel.EntityPropertyType> = {};
  table.columns.forEach((column, index) => {
    properties[column.field] = entityProperty(values[index] ?? "", column.kind);
  });
  for (const [field, tier] of outOfPlan) {
    properties[field] = { type: "String", basicValue: notInPlanText(tier) };
  }
  const title = flat[titleField];
  return {
    type: "Entity",
    text: typeof title === "string" && title !== "" ? title : String(title ?? ""),
    properties,
    layouts: { card: { title: { property: titleField } } },
  };
}
