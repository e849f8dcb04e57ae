import type { FieldUnit } from "../api/fieldCatalogue";
import { factsOf } from "../api/fieldFacts";

/**
 * What a column holds decides how Excel shows it. The kind of a field the contract lists comes from its
 * `x-unit` in the field catalogue (src/api/openapi.yaml -> src/api/fieldCatalogue.ts); a column the contract does
 * not list (an export file's layout is not all known) is read from its name's words, and either is checked
 * against the values, so every column comes out formatted.
 *
 * Exported sheets, formula results (src/functions/shape/dataTypes.ts) and the cells the sheet templates lay out
 * (src/excel/templates/) all take their formats from here.
 */

export type ColumnKind =
  | "text"
  | "identifier"
  | "integer"
  | "number"
  | "currency"
  | "percent"
  | "year"
  | "miles"
  | "coordinate"
  | "date"
  | "timestamp"
  | "boolean";

/**
 * One percent convention: a percent is a fraction under Excel's "%" format (0.9187 shows 91.87 %), in every
 * cell, spill, entity field, export and template, so arithmetic on cells is right (src/api/readers and
 * exportPercents.ts turn whatever the service sent into fractions). A year is a plain number ("2005", never
 * "2,005.00"); a distance shows its unit. Text columns are "@" so Excel keeps unit names such as "021621" as
 * typed rather than the number 21621.
 */
export const NUMBER_FORMAT_BY_KIND: Readonly<Record<ColumnKind, string>> = {
  text: "@",
  identifier: "0",
  integer: "#,##0",
  number: "#,##0.00",
  currency: "$#,##0.00",
  percent: "0.00%",
  year: "0",
  miles: '0.00 "mi"',
  coordinate: "0.000000",
  date: "yyyy-mm-dd",
  timestamp: "yyyy-mm-dd hh:mm:ss",
  boolean: "General",
};

/** The column kind of each unit of the field catalogue. */
const KIND_BY_UNIT: Readonly<Record<FieldUnit, ColumnKind>> = {
  percent: "percent",
  currency: "currency",
  count: "integer",
  days: "integer",
  year: "year",
  date: "date",
  timestamp: "timestamp",
  miles: "miles",
  sq_ft: "number",
  acres: "number",
  coordinate: "coordinate",
  number: "number",
  identifier: "identifier",
  boolean: "boolean",
  text: "text",
};

const looksLikeTimestamp = (value: string) => /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value);
const looksLikeDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

const MONEY_WORDS = new Set(["rent", "rents", "price", "value", "ner", "cost", "income"]);

/** Kinds read from names so far: every cell of a recalculation asks again for one of a few dozen field names. */
const kindByName = new Map<string, ColumnKind | undefined>();
/** Names come from the service's fields and export columns: a small vocabulary, but bounded here all the same. */
const MAX_REMEMBERED_NAMES = 10_000;

function kindFromName(name: string): ColumnKind | undefined {
  if (kindByName.has(name)) return kindByName.get(name);
  const facts = factsOf(name);
  const kind = facts ? KIND_BY_UNIT[facts.unit] : kindFromWords(name);
  if (kindByName.size >= MAX_REMEMBERED_NAMES) kindByName.clear();
  kindByName.set(name, kind);
  return kind;
}

/** Reads the kind from the words of a snake_case field name the contract does not list ("avg_ner_psf"). */
function kindFromWords(name: string): ColumnKind | undefined {
  const words = name.toLowerCase().split(/[_\s]+/);
  const has = (word: string) => words.includes(word);
  const last = words.at(-1);
  const money = words.some((word) => MONEY_WORDS.has(word));
  if (last === "id" || last === "ids") return "identifier";
  if (has("zip") || has("zipcode")) return "text";
  if (has("latitude") || has("longitude")) return "coordinate";
  if ((has("growth") && (has("rate") || has("yoy"))) || (has("cap") && has("rate"))) return "percent";
  if (has("percent") || has("percentage") || has("pct")) return "percent";
  if (has("date") || name.toLowerCase() === "collected_at") return "date";
  if (last === "at") return "timestamp";
  if (has("year") || (has("built") && !money) || (has("renovated") && !money)) return "year";
  if (has("distance") || has("miles")) return "miles";
  if (has("count") || has("days") || has("stories")) return "integer";
  // A size difference is area, a rent-per-area difference is money: only money words make it currency.
  if (money || (has("differential") && !has("sq") && !has("sqft"))) return "currency";
  if (has("sqft") || (has("sq") && has("ft"))) return "number";
  return undefined;
}

/**
 * The format of a field's cells before any value is seen (a template's formula cells): "General" where the
 * name says nothing, never text ("@" would turn a formula typed into the cell into text).
 */
export function numberFormatForField(name: string): string {
  const kind = kindFromName(name);
  return kind === undefined || kind === "text" || kind === "identifier"
    ? "General"
    : NUMBER_FORMAT_BY_KIND[kind];
}

/** Infers the kind from the name, and falls back to what the non-empty values are when the name is silent or wrong. */
export function inferColumnKind(name: string, values: Iterable<unknown>): ColumnKind {
  let numbers = 0;
  let integers = 0;
  let strings = 0;
  let booleans = 0;
  let dates = 0;
  let timestamps = 0;
  for (const value of values) {
    if (typeof value === "number") {
      numbers++;
      if (Number.isInteger(value)) integers++;
    } else if (typeof value === "boolean") booleans++;
    else if (typeof value === "string" && value !== "") {
      strings++;
      if (looksLikeDate(value)) dates++;
      else if (looksLikeTimestamp(value)) timestamps++;
    }
  }
  const seen = numbers + strings + booleans;
  const fromName = kindFromName(name);
  if (seen === 0) return fromName ?? "text";
  if (booleans === seen) return "boolean";
  if (strings === seen && dates === seen) return fromName === "timestamp" ? "timestamp" : "date";
  if (strings === seen && dates + timestamps === seen) return "timestamp";
  if (numbers === seen) {
    const allIntegers = integers === seen;
    if (fromName === "identifier") return allIntegers ? fromName : "number";
    // A count that is not whole is an average of whole things (a comp set's average units and stories): it
    // stays a count, rounded as the thing is (toCellValue), as a year does. Days keep their fraction.
    if (fromName === "integer") return allIntegers || factsOf(name)?.unit === "count" ? fromName : "number";
    if (fromName === "text") return allIntegers ? "identifier" : "number";
    if (["currency", "percent", "year", "miles", "coordinate"].includes(fromName ?? ""))
      return fromName as ColumnKind;
    return allIntegers ? "integer" : "number";
  }
  return "text";
}
