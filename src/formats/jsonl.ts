import { FormatError, type ParsedTable } from "./parsedTable";

/**
 * JSON Lines: one object per line. Columns are every key seen, in first-seen order; a key missing from a line
 * is null in that row. Nested values (arrays, objects) are kept for shaping to flatten.
 */
export function parseJsonl(text: string): ParsedTable {
  const objects: Record<string, unknown>[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new FormatError("jsonl", `not valid JSON (${(error as Error).message}).`, index + 1);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new FormatError("jsonl", "each line must be one JSON object.", index + 1);
    }
    objects.push(parsed as Record<string, unknown>);
  });
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const object of objects) {
    for (const key of Object.keys(object)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  return { columns, rows: objects.map((object) => columns.map((column) => object[column] ?? null)) };
}
