import { PaneInputError } from "../paneInputError";

/** What the formula builder can insert: each kind is one RENT function. */
export type InsertKind = "market" | "property" | "forecast" | "compSet" | "narrative";

/**
 * What a formula is about: one boundary, property or comp set by id, or the cells of a selected range
 * holding property ids (then one block formula refers to them).
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

/**
 * The formulas for a choice, as a row from the cell where they go: one RENT.MARKET per metric (the function
 * takes one), otherwise a single formula (RENT.PROPERTY and RENT.GEOFORECAST take several fields at once).
 */
export function formulasFor(kind: InsertKind, subject: Subject, fields: readonly string[]): string[] {
  if (fields.length === 0) throw new PaneInputError("Pick at least one field from the list.");
  if ("cells" in subject && kind !== "property") {
    throw new PaneInputError("A range of cells can be used for property ids only: select one cell instead.");
  }
  const target = argument(subject);
  switch (kind) {
    case "market":
      return fields.map((metric) => `=RENT.MARKET(${target}, ${quoted(metric)})`);
    case "property":
      return [`=RENT.PROPERTY(${target}, ${quoted(fields.join(","))})`];
    case "forecast":
      return [`=RENT.GEOFORECAST(${target}, ${quoted(fields.join(","))})`];
    case "compSet":
      return [`=RENT.${onlyOne(fields, "comp set table")}(${target})`];
    case "narrative":
      return [`=RENT.NARRATIVE(${target}, ${quoted(onlyOne(fields, "narrative section"))})`];
  }
}
