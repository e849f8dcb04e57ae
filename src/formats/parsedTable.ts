import type { components } from "../api/schema";

/** The export file formats of bulk jobs, as the contract names them. */
export type ExportFormat = components["schemas"]["OutputFormat"];

/**
 * A parsed file: column names in file order and one array per row, aligned with them. Values keep their
 * types: numbers are numbers, a missing value is null, text is text (ISO dates stay text until shaping).
 */
export interface ParsedTable {
  readonly columns: string[];
  readonly rows: unknown[][];
}

/** A file that cannot be read as its format: says which format, where, and what was wrong. */
export class FormatError extends Error {
  override readonly name = "FormatError";

  constructor(
    readonly format: ExportFormat,
    message: string,
    /** 1-based line (csv, jsonl) where the problem is, when there is one. */
    readonly line?: number,
  ) {
    super(`This ${format} file cannot be read${line === undefined ? "" : ` (line ${line})`}: ${message}`);
  }
}
