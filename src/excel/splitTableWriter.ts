import { dataRowsPerSheet, EXCEL_MAX_ROWS } from "./sheetLimits";
import { numberedSheetName, sanitizeSheetName } from "./sheetNames";
import type { TableData } from "../tables/tableData";
import { writeTable, type WriteTableOptions, type WriteTableResult } from "./tableWriter";

export interface SplitWriteResult {
  /** One per sheet, in row order: "Name", "Name (2)", "Name (3)"... */
  readonly sheets: readonly WriteTableResult[];
  readonly rowsWritten: number;
  readonly requests: number;
}

/**
 * Writes a table longer than a worksheet across consecutive sheets, each a full table with its own header
 * row: rows [0, n) on the first, [n, 2n) on the second, and so on, so every row lands exactly once and in
 * order. A table that fits takes one sheet, as `writeTable` alone would. When a part fails or is cancelled,
 * the parts already written are removed too: a partial export never stays behind looking complete.
 */
export async function writeTableAcrossSheets(
  context: Excel.RequestContext,
  data: TableData,
  options: WriteTableOptions,
): Promise<SplitWriteResult> {
  const perSheet = dataRowsPerSheet(options.maxSheetRows ?? EXCEL_MAX_ROWS);
  const totalRows = data.rows.length;
  const base = sanitizeSheetName(options.sheetName);
  const written: WriteTableResult[] = [];
  try {
    for (let start = 0, part = 1; part === 1 || start < totalRows; start += perSheet, part++) {
      const rows = data.rows.slice(start, start + perSheet);
      const result = await writeTable(
        context,
        { columns: data.columns, rows },
        {
          ...options,
          sheetName: part === 1 ? base : numberedSheetName(base, part),
          // The first part is the one to show; the later ones follow it in the tab bar.
          activate: part === 1 && (options.activate ?? true),
          onProgress: (progress) =>
            options.onProgress?.({ rowsWritten: start + progress.rowsWritten, totalRows }),
        },
      );
      written.push(result);
    }
  } catch (error) {
    await discardSheets(
      context,
      written.map((result) => result.sheetName),
    );
    throw error;
  }
  return {
    sheets: written,
    rowsWritten: written.reduce((sum, result) => sum + result.rowsWritten, 0),
    requests: written.reduce((sum, result) => sum + result.requests, 0),
  };
}

/** Best effort, as in `writeTable`: the caller must see the original failure, not a failed clean-up. */
async function discardSheets(context: Excel.RequestContext, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  try {
    for (const name of names) context.workbook.worksheets.getItem(name).delete();
    await context.sync();
  } catch {
    // The sheets stay; their names say what they are and the caller reports the original failure.
  }
}
