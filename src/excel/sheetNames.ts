/**
 * Worksheet names from free text (a comp set's name). Excel's rules: at most 31 characters, none of
 * `[ ] : * ? / \`, not empty, not starting or ending with an apostrophe, not "History" (reserved), and unique
 * in the workbook without regard to case.
 */

export const MAX_SHEET_NAME_LENGTH = 31;

const FORBIDDEN = /[[\]:*?/\\]/g;
const RESERVED = new Set(["HISTORY"]);

function truncate(text: string, maxLength: number): string {
  // Code points, so an emoji is never cut in half.
  const characters = Array.from(text);
  return characters.length <= maxLength ? text : characters.slice(0, maxLength).join("").trimEnd();
}

/** A valid worksheet name as close to the wish as Excel allows. */
export function sanitizeSheetName(wish: string, fallback = "Sheet"): string {
  let name = wish
    .replace(FORBIDDEN, "-")
    .replace(/\s+/g, " ")
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .replace(/^'+|'+$/g, "")
    .trim();
  name = truncate(name, MAX_SHEET_NAME_LENGTH);
  if (name === "" || RESERVED.has(name.toUpperCase())) name = name === "" ? fallback : `${name} data`;
  return name;
}

/** "Name (n)" within Excel's 31 characters: the name is shortened, never the number. */
export function numberedSheetName(base: string, n: number): string {
  const suffix = ` (${n})`;
  return `${truncate(base, MAX_SHEET_NAME_LENGTH - suffix.length)}${suffix}`;
}

/**
 * The sanitized wish if no sheet has that name yet, else "Name (2)", "Name (3)"...: an export never lands on
 * (or replaces) a sheet that already exists.
 */
export function uniqueSheetName(wish: string, existingNames: Iterable<string>): string {
  const taken = new Set(Array.from(existingNames, (name) => name.toUpperCase()));
  const base = sanitizeSheetName(wish);
  if (!taken.has(base.toUpperCase())) return base;
  for (let n = 2; ; n++) {
    const candidate = numberedSheetName(base, n);
    if (!taken.has(candidate.toUpperCase())) return candidate;
  }
}

/** Reads the workbook's sheet names (one request) and picks a free name for a new sheet. */
export async function freeSheetName(context: Excel.RequestContext, wish: string): Promise<string> {
  const sheets = context.workbook.worksheets;
  sheets.load("items/name");
  await context.sync();
  return uniqueSheetName(
    wish,
    sheets.items.map((sheet) => sheet.name),
  );
}
