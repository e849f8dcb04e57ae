/**
 * The `options` argument of the RENT functions: a two-column range of name/value pairs, or text like
 * "bedrooms=1,2; min_rent=1500". Names are matched without regard to case; an unknown name is a #VALUE!
 * that names it and lists the allowed ones, so a typo never silently drops a filter.
 */
import { ArgumentError } from "../cellErrors";
import { describe, isBlank, isEmptyArgument } from "./scalars";

export type OptionValues = Map<string, unknown>;

function fromRange(rows: unknown[][], argument: string): [string, unknown][] {
  return (
    rows
      // A blank row (room left for more options) arrives as [0, 0] from desktop Excel: no option is named 0.
      .filter((row) => !row.every(isEmptyArgument))
      .map((row) => {
        if (row.length !== 2) {
          throw new ArgumentError(
            `${argument} must be a two-column range (name, value) or text "name=value; ...".`,
          );
        }
        const [name, value] = row;
        if (typeof name !== "string" || name.trim() === "") {
          throw new ArgumentError(
            `${argument}: every row needs an option name in its first column, not ${describe(isEmptyArgument(name) ? "" : name)}.`,
          );
        }
        return [name, value];
      })
  );
}

function fromText(text: string, argument: string): [string, unknown][] {
  return text
    .split(";")
    .filter((part) => part.trim() !== "")
    .map((part) => {
      const equals = part.indexOf("=");
      if (equals <= 0) throw new ArgumentError(`${argument}: "${part.trim()}" is not name=value.`);
      return [part.slice(0, equals), part.slice(equals + 1).trim()];
    });
}

/**
 * Reads `options` against the names a function allows. Returns canonical (allowed-spelling) names. Names that
 * `alsoAllowed` accepts (a family such as "any *_gte filter") pass through in lower case.
 */
export function readOptions(
  value: unknown,
  allowed: readonly string[],
  argument = "options",
  alsoAllowed?: { test: (name: string) => boolean; description: string },
): OptionValues {
  const options: OptionValues = new Map();
  // Typed text reaches a matrix parameter as a 1x1 grid.
  if (Array.isArray(value) && value.length === 1 && Array.isArray(value[0]) && value[0].length === 1) {
    value = (value[0] as unknown[])[0];
  }
  if (isBlank(value) || (Array.isArray(value) && (value as unknown[][]).flat().every(isBlank)))
    return options;
  let pairs: [string, unknown][];
  if (Array.isArray(value)) pairs = fromRange(value as unknown[][], argument);
  else if (typeof value === "string") pairs = fromText(value, argument);
  else throw new ArgumentError(`${argument} must be a two-column range or text "name=value; ...".`);

  for (const [rawName, optionValue] of pairs) {
    const lower = rawName.trim().toLowerCase();
    const name =
      allowed.find((candidate) => candidate.toLowerCase() === lower) ??
      (alsoAllowed?.test(lower) ? lower : undefined);
    if (!name) {
      const family = alsoAllowed ? `, ${alsoAllowed.description}` : "";
      throw new ArgumentError(
        `Unknown option "${rawName.trim()}" in ${argument}. Allowed: ${allowed.join(", ")}${family}.`,
      );
    }
    if (options.has(name)) throw new ArgumentError(`Option "${name}" is given twice in ${argument}.`);
    options.set(name, optionValue);
  }
  return options;
}
