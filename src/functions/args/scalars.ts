/**
 * Readers for single formula arguments. Excel passes an omitted optional argument as null (or undefined), and
 * an empty cell as null on the web but 0 in desktop Excel (office-js #4702, #5262): so "nothing there" is null,
 * undefined or "", and also 0 where 0 cannot be meant (a name or an id; see isEmptyArgument).
 */
import { ArgumentError } from "../cellErrors";

/**
 * A cell that holds a data type (a formatted number or an entity this add-in returned) reaches a function as
 * the data type's object where the host holds data types; its plain value is what an argument means.
 */
export function plainValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const { type, basicValue, text } = value as { type?: unknown; basicValue?: unknown; text?: unknown };
  if (type === "Entity") return text;
  return typeof type === "string" && basicValue !== undefined ? basicValue : value;
}

export function isBlank(value: unknown): boolean {
  value = plainValue(value);
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "");
}

/**
 * Nothing given, for an argument that names something (a field, an option) or is an id: no name and no id is
 * 0, so 0 is what desktop Excel passes for an empty cell there. Numbers (0 bedrooms, a 0 limit) keep isBlank.
 */
export function isEmptyArgument(value: unknown): boolean {
  return isBlank(value) || plainValue(value) === 0;
}

/** A name (of a field, metric, column): text; an empty cell reads as empty, not as the name "0". */
export function readName(value: unknown, argument: string): string {
  return readText(isEmptyArgument(value) ? "" : value, argument);
}

/** A positive whole number such as a property, comp set or boundary id (numeric text is accepted). */
export function readId(value: unknown, argument: string): number {
  value = plainValue(value);
  const number = typeof value === "string" && value.trim() !== "" ? Number(value.trim()) : value;
  if (
    typeof number === "number" &&
    Number.isInteger(number) &&
    number > 0 &&
    number <= Number.MAX_SAFE_INTEGER
  ) {
    return number;
  }
  throw new ArgumentError(`${argument} must be a positive whole number (an id), not ${describe(value)}.`);
}

export function readOptionalId(value: unknown, argument: string): number | undefined {
  return isEmptyArgument(value) ? undefined : readId(value, argument);
}

export function readNumber(value: unknown, argument: string): number {
  value = plainValue(value);
  const number = typeof value === "string" && value.trim() !== "" ? Number(value.trim()) : value;
  if (typeof number === "number" && Number.isFinite(number)) return number;
  throw new ArgumentError(`${argument} must be a number, not ${describe(value)}.`);
}

export function readOptionalNumber(value: unknown, argument: string): number | undefined {
  return isBlank(value) ? undefined : readNumber(value, argument);
}

export function readInteger(value: unknown, argument: string, min: number, max: number): number {
  const number = readNumber(value, argument);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new ArgumentError(
      `${argument} must be a whole number from ${min} to ${max}, not ${describe(value)}.`,
    );
  }
  return number;
}

export function readText(value: unknown, argument: string): string {
  value = plainValue(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw new ArgumentError(`${argument} must be text, not ${describe(value)}.`);
}

const TRUE_WORDS = new Set(["true", "yes", "1", "on"]);
const FALSE_WORDS = new Set(["false", "no", "0", "off"]);

export function readBoolean(value: unknown, argument: string): boolean {
  value = plainValue(value);
  if (typeof value === "boolean") return value;
  if (typeof value === "number" && (value === 0 || value === 1)) return value === 1;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  throw new ArgumentError(`${argument} must be TRUE or FALSE, not ${describe(value)}.`);
}

export function readOptionalBoolean(value: unknown, argument: string): boolean | undefined {
  return isBlank(value) ? undefined : readBoolean(value, argument);
}

/** One of a fixed set of words, matched without regard to case; the error lists what is allowed. */
export function readChoice<T extends string>(value: unknown, argument: string, allowed: readonly T[]): T {
  value = plainValue(value);
  if (typeof value === "string") {
    const found = allowed.find((choice) => choice.toLowerCase() === value.trim().toLowerCase());
    if (found) return found;
  }
  throw new ArgumentError(`${argument} must be one of ${allowed.join(", ")}, not ${describe(value)}.`);
}

/**
 * A list given as a range (any shape; blanks skipped), as text separated by commas or semicolons, or both.
 * Each item is read by `readItem`. Blank is `isEmptyArgument` (names, ids) unless the list is of numbers
 * where 0 means 0 (then pass `isBlank`).
 */
export function readList<T>(
  value: unknown,
  argument: string,
  readItem: (item: unknown, argument: string) => T,
  isEmpty: (item: unknown) => boolean = isEmptyArgument,
): T[] {
  // Excel passes a matrix parameter as a grid even for one typed value: "1,2" arrives as [["1,2"]].
  const cells = (Array.isArray(value) ? (value as unknown[]).flat(2) : [value]).map(plainValue);
  const items = cells.flatMap((cell) => (typeof cell === "string" ? cell.split(/[,;]/) : [cell]));
  return items.filter((item) => !isEmpty(item)).map((item) => readItem(item, argument));
}

export function describe(value: unknown): string {
  if (value === null || value === undefined || value === "") return "empty";
  if (typeof value === "string") return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (Array.isArray(value)) return "a range";
  return String(value);
}
