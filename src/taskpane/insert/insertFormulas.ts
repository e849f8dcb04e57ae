import { PaneInputError } from "../paneInputError";

/** What the formula builder can insert: each kind is one RENT function. */
export type InsertKind = "market" | "property" | "propertyForecast" | "forecast" | "compSet" | "narrative";

/**
 * What a formula is about: one boundary, property or comp set by id, or the cells of a selected range
 * holding property ids or markets (names or ids); then one block formula refers to them.
 */
export type Subject = { id: number } | { cells: string };

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

function argument(subject: Subject): string {
  return "id" in subject ? String(subject.id) : subject.cells;
}

function onlyOne(fields: readonly string[], what: string): string {
  if (fields.length !== 1) throw new PaneInputError(`Pick one ${what}: each fills a table of its own.`);
  return fields[0] as string;
}

/** The kinds whose function takes a range of what they are about (one row per cell, one column per field). */
export const BLOCK_KINDS: ReadonlySet<InsertKind> = new Set(["market", "property"]);

/**
 * The formulas for a choice, as a row from the cell where they go: for one market, one RENT.MARKET per metric
 * (each cell stands alone when a metric is typed over); for a range of markets, one block; otherwise a single
 * formula (RENT.PROPERTY, RENT.FORECAST and RENT.GEOFORECAST take several fields at once).
 */
export function formulasFor(kind: InsertKind, subject: Subject, fields: readonly string[]): string[] {
  if (fields.length === 0) throw new PaneInputError("Pick at least one field from the list.");
  if ("cells" in subject && !BLOCK_KINDS.has(kind)) {
    throw new PaneInputError(
      "A range of cells can be used for property ids or markets only: select one cell instead.",
    );
  }
  const target = argument(subject);
  switch (kind) {
    case "market":
      if ("cells" in subject) return [`=RENT.MARKET(${target}, ${quoted(fields.join(","))})`];
      return fields.map((metric) => `=RENT.MARKET(${target}, ${quoted(metric)})`);
    case "property":
      return [`=RENT.PROPERTY(${target}, ${quoted(fields.join(","))})`];
    case "propertyForecast":
      return [`=RENT.FORECAST(${target}, ${quoted(fields.join(","))})`];
    case "forecast":
      return [`=RENT.GEOFORECAST(${target}, ${quoted(fields.join(","))})`];
    case "compSet":
      return [`=RENT.${onlyOne(fields, "comp set table")}(${target})`];
    case "narrative":
      return [`=RENT.NARRATIVE(${target}, ${quoted(onlyOne(fields, "narrative section"))})`];
  }
}
