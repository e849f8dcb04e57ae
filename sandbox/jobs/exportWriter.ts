import { writeFile } from "node:fs/promises";
import { parquetWriteFile } from "hyparquet-writer";
import Papa from "papaparse";
import { exportColumns, schemaProperties } from "../contract/schemaFields";
import type { ExportRow } from "./exportRows";
import type { OutputFormat } from "./jobStore";

type ParquetType = "INT32" | "DOUBLE" | "STRING";

function parquetType(schema: Record<string, unknown>): ParquetType {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes("integer") ? "INT32" : types.includes("number") ? "DOUBLE" : "STRING";
}

export const FILE_EXTENSIONS: Record<OutputFormat, string> = {
  csv: "csv",
  jsonl: "jsonl",
  parquet: "parquet",
};

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson",
  parquet: "application/vnd.apache.parquet",
};

/** Writes rows to a file with the columns (and order) the contract's export row schema gives. */
export async function writeExportFile(
  path: string,
  format: OutputFormat,
  schemaName: string,
  rows: ExportRow[],
): Promise<void> {
  const columns = exportColumns(schemaName);
  if (format === "csv") {
    const csv = Papa.unparse({
      fields: columns,
      data: rows.map((row) => columns.map((column) => row[column] ?? null)),
    });
    // RFC 4180: every record, the last included, ends with CRLF (papaparse joins records with CRLF).
    await writeFile(path, `${csv}\r\n`);
  } else if (format === "jsonl") {
    const ordered = rows.map((row) =>
      JSON.stringify(Object.fromEntries(columns.map((column) => [column, row[column] ?? null]))),
    );
    await writeFile(path, ordered.length === 0 ? "" : `${ordered.join("\n")}\n`);
  } else {
    const properties = schemaProperties(schemaName);
    parquetWriteFile({
      filename: path,
      columnData: columns.map((column) => ({
        name: column,
        data: rows.map((row) => row[column] ?? null),
        type: parquetType(properties[column] ?? {}),
      })),
    });
  }
}
