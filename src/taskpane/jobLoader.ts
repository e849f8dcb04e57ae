import { percentsAsFractions } from "../tables/exportPercents";
import { EXCEL_MAX_ROWS, sheetsNeeded } from "../excel/sheetLimits";
import { writeTableAcrossSheets } from "../excel/splitTableWriter";
import { shapeTable, type TableData } from "../tables/tableData";
import type { WriteProgress } from "../excel/tableWriter";
import { exportFormatOf, parseExportFile } from "../formats/exportFile";
import type { ExportFormat } from "../formats/parsedTable";
import type { ExcelRunner } from "./excelRunner";
import { PaneInputError } from "./paneInputError";

/** An export file read and shaped, not yet written: the pane decides how once it knows the size. */
export interface PreparedExport {
  readonly table: TableData;
  readonly sheetName: string;
  /** Sheets the table takes, each with its header row; more than one when it is longer than a worksheet. */
  readonly sheetsNeeded: number;
  readonly maxSheetRows: number;
  /** The file as it came, for "Save file" when it is too long for one sheet. */
  readonly bytes: Uint8Array;
  readonly fileName: string;
}

export interface WriteExportOptions {
  /** Spread a table longer than a worksheet over several sheets; without it such a table is refused. */
  split?: boolean;
  onProgress?: (progress: WriteProgress) => void;
  signal?: AbortSignal;
}

export interface LoadResult {
  /** The first (usually the only) sheet. */
  sheetName: string;
  sheetNames: string[];
  rowsWritten: number;
}

/** A table longer than a worksheet, refused before anything is written: the person chooses to split or save. */
export class TooManyRowsForSheetError extends PaneInputError {
  constructor(readonly prepared: PreparedExport) {
    const rows = prepared.table.rows.length.toLocaleString("en-US");
    const perSheet = (prepared.maxSheetRows - 1).toLocaleString("en-US");
    super(
      `${prepared.fileName} has ${rows} rows, more than an Excel worksheet holds (${perSheet} under the header). ` +
        `Nothing was written. Split it across ${prepared.sheetsNeeded} sheets, or save the file.`,
    );
  }
}

/**
 * An export file's bytes, parsed by its format, percents brought to points and shaped into typed and formatted
 * columns, with the number of sheets it needs. A downloaded file and one the person picked with "Load from
 * file" take this same path.
 */
export async function prepareExportFile(
  bytes: Uint8Array,
  format: ExportFormat,
  names: { sheetName: string; fileName: string },
  maxSheetRows: number = EXCEL_MAX_ROWS,
): Promise<PreparedExport> {
  const parsed = await parseExportFile(bytes, format);
  const table = shapeTable(parsed.columns, percentsAsFractions(parsed.columns, parsed.rows));
  return {
    table,
    ...names,
    sheetsNeeded: sheetsNeeded(table.rows.length, maxSheetRows),
    maxSheetRows,
    bytes,
  };
}

/**
 * Writes a prepared export as a table in chunks under Excel's request limit: on one new sheet, or, when asked
 * to split, on as many as it needs. A table longer than a sheet without `split` is refused before any write.
 */
export async function writePreparedExport(
  runExcel: ExcelRunner,
  prepared: PreparedExport,
  options: WriteExportOptions = {},
): Promise<LoadResult> {
  if (prepared.sheetsNeeded > 1 && !options.split) throw new TooManyRowsForSheetError(prepared);
  const written = await runExcel((context) =>
    writeTableAcrossSheets(context, prepared.table, {
      sheetName: prepared.sheetName,
      maxSheetRows: prepared.maxSheetRows,
      onProgress: options.onProgress,
      signal: options.signal,
    }),
  );
  const sheetNames = written.sheets.map((sheet) => sheet.sheetName);
  return { sheetName: sheetNames[0] ?? prepared.sheetName, sheetNames, rowsWritten: written.rowsWritten };
}

/** The format of a picked file: by its name, else the job's format; a file of another kind is refused. */
export function formatOfPickedFile(fileName: string, expected: ExportFormat | undefined): ExportFormat {
  const format = exportFormatOf(fileName) ?? expected;
  if (!format)
    throw new PaneInputError(`"${fileName}" is not an export file: choose a .csv, .jsonl or .parquet file.`);
  return format;
}
