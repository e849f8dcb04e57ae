import { percentsInPoints } from "../excel/exportPercents";
import { shapeTable } from "../excel/tableData";
import { writeTable, type WriteProgress } from "../excel/tableWriter";
import { exportFormatOf, parseExportFile } from "../formats/exportFile";
import type { ExportFormat } from "../formats/parsedTable";
import type { ExcelRunner } from "./excelRunner";
import { PaneInputError } from "./paneInputError";

export interface LoadOptions {
  sheetName: string;
  onProgress?: (progress: WriteProgress) => void;
  signal?: AbortSignal;
}

export interface LoadResult {
  sheetName: string;
  rowsWritten: number;
}

/**
 * An export file's bytes into a new worksheet: parsed by its format, percents brought to points, shaped into
 * typed and formatted columns, written as a table in chunks under Excel's request limit. A downloaded file and one the person
 * picked with "Load from file" take this same path.
 */
export async function loadExportFile(
  runExcel: ExcelRunner,
  bytes: Uint8Array,
  format: ExportFormat,
  options: LoadOptions,
): Promise<LoadResult> {
  const parsed = await parseExportFile(bytes, format);
  const table = shapeTable(parsed.columns, percentsInPoints(parsed.columns, parsed.rows));
  const written = await runExcel((context) =>
    writeTable(context, table, {
      sheetName: options.sheetName,
      onProgress: options.onProgress,
      signal: options.signal,
    }),
  );
  return { sheetName: written.sheetName, rowsWritten: written.rowsWritten };
}

/** The format of a picked file: by its name, else the job's format; a file of another kind is refused. */
export function formatOfPickedFile(fileName: string, expected: ExportFormat | undefined): ExportFormat {
  const format = exportFormatOf(fileName) ?? expected;
  if (!format)
    throw new PaneInputError(`"${fileName}" is not an export file: choose a .csv, .jsonl or .parquet file.`);
  return format;
}
