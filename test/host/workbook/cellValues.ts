/**
 * Excel's cell values as JSON (the data types of ExcelApi 1.16) and the cells the host holds, both ways: what a
 * function's result or a `valuesAsJson` write puts in a cell, what `values` and `valuesAsJson` read back, and
 * what a function receives for a cell. Microsoft's reference for each type says what `values` returns: the
 * type's `basicValue`, which for an entity is "#VALUE!" (Excel.EntityCellValue.basicValue).
 */
import type { Cell, CellValue } from "./workbook";

type Json = { type: string } & Record<string, unknown>;

const isJson = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";

/**
 * A data type as the cell shows it: a number with its format (FormattedNumber, or from ExcelApi 1.19 a Double
 * with numberFormat), an entity its text with its fields behind it, the basic types their value. Undefined for
 * anything else.
 */
export function cellFromJson(value: Json): Cell | undefined {
  const { type, basicValue } = value;
  if ((type === "FormattedNumber" || type === "Double") && typeof basicValue === "number") {
    const format = value.numberFormat;
    return typeof format === "string" ? { value: basicValue, valueFormat: format } : { value: basicValue };
  }
  if (type === "Entity" && typeof value.text === "string") {
    const properties = (value.properties ?? {}) as Record<string, unknown>;
    const fields: Record<string, Cell> = {};
    for (const [name, property] of Object.entries(properties)) fields[name] = cellFromValue(property);
    const title = (value.layouts as { card?: { title?: { property?: unknown } } } | undefined)?.card?.title;
    const titleField = typeof title?.property === "string" ? title.property : undefined;
    return { value: value.text, entity: { text: value.text, fields, titleField } };
  }
  if (type === "Empty") return { value: "" };
  if (type === "Error" && typeof basicValue === "string") return { value: basicValue };
  const basic = { String: "string", Boolean: "boolean" }[type];
  if (basic !== undefined && typeof basicValue === basic) return { value: basicValue as CellValue };
  return undefined;
}

/** A value a function returned (or an error object it put in a cell), as the cell shows it. */
export function cellFromValue(value: unknown): Cell {
  if (value === null || value === undefined) return { value: "" };
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return { value };
  if (typeof value === "object" && typeof (value as { code?: unknown }).code === "string") {
    const { code, message } = value as { code: string; message?: string };
    return { value: code, errorMessage: message || undefined };
  }
  if (isJson(value)) {
    const shown = cellFromJson(value);
    if (shown) return shown;
  }
  return { value: "#VALUE!", errorMessage: `A function returned ${Object.prototype.toString.call(value)}.` };
}

/** Whether a function's value is a data type (an object with a `type`), not one of the four basic types. */
export const isDataType = (value: unknown): boolean => isJson(value);

/** `Range.values` of a cell: the four basic types only; an entity reads as its basicValue, "#VALUE!". */
export function basicValueOf(cell: Cell | undefined): CellValue {
  if (!cell) return "";
  return cell.entity ? "#VALUE!" : cell.value;
}

/**
 * `Range.valuesAsJson` of a cell. A number with its own format reads as FormattedNumber before ExcelApi 1.19
 * and as a Double with numberFormat from 1.19, where FormattedNumber is deprecated.
 */
export function cellToJson(cell: Cell | undefined, doubleCarriesFormat: boolean): Json {
  if (!cell || cell.value === "") return { type: "Empty", basicType: "Empty", basicValue: "" };
  if (cell.entity) {
    const properties = Object.fromEntries(
      Object.entries(cell.entity.fields).map(([name, field]) => [
        name,
        cellToJson(field, doubleCarriesFormat),
      ]),
    );
    const layouts = cell.entity.titleField ? { card: { title: { property: cell.entity.titleField } } } : {};
    return {
      type: "Entity",
      basicType: "Error",
      basicValue: "#VALUE!",
      text: cell.entity.text,
      properties,
      layouts,
    };
  }
  const { value, valueFormat } = cell;
  if (typeof value === "number") {
    if (valueFormat === undefined) return { type: "Double", basicType: "Double", basicValue: value };
    const type = doubleCarriesFormat ? "Double" : "FormattedNumber";
    return { type, basicType: "Double", basicValue: value, numberFormat: valueFormat };
  }
  if (typeof value === "boolean") return { type: "Boolean", basicType: "Boolean", basicValue: value };
  if (value.startsWith("#")) return { type: "Error", basicType: "Error", basicValue: value };
  return { type: "String", basicType: "String", basicValue: value };
}

/** What a function receives for a cell: a data type as the object Excel passes for an `any` parameter. */
export function passedValue(cell: Cell): unknown {
  if (cell.valueFormat !== undefined && typeof cell.value === "number") {
    return { type: "FormattedNumber", basicValue: cell.value, numberFormat: cell.valueFormat };
  }
  if (cell.entity) {
    const properties = Object.fromEntries(
      Object.entries(cell.entity.fields).map(([name, field]) => [name, passedProperty(field)]),
    );
    return { type: "Entity", text: cell.entity.text, properties };
  }
  return cell.value;
}

function passedProperty(cell: Cell): unknown {
  const passed = passedValue(cell);
  if (typeof passed === "object") return passed;
  const type = { number: "Double", string: "String", boolean: "Boolean" }[typeof passed as "number"];
  return { type, basicValue: passed };
}
