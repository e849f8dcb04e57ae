import { rectAddress } from "./a1";
import { NUMBER_FORMAT_BY_KIND } from "../tables/columnKinds";
import { asLiteralText } from "../tables/literalText";
import { DEFAULT_REQUEST_BUDGET_BYTES, jsonByteLength } from "../tables/payloadBytes";
import { rowChunks } from "./rowChunks";
import { dataRowsPerSheet, EXCEL_MAX_COLUMNS, EXCEL_MAX_ROWS } from "./sheetLimits";
import { freeSheetName } from "./sheetNames";
import type { CellValue, TableData } from "../tables/tableData";

export interface WriteProgress {
  readonly rowsWritten: number;
  readonly totalRows: number;
}

export interface WriteTableOptions {
  /** The wish (a comp set's name, a job's report type): made valid and unique, never overwriting a sheet. */
  readonly sheetName: string;
  readonly onProgress?: (progress: WriteProgress) => void;
  /** Cancels between requests; the half-written sheet is removed so no partial export looks complete. */
  readonly signal?: AbortSignal;
  /** Estimated bytes of cell data per request; defaults to a safe share of Excel's 5 MB limit. */
  readonly requestBudgetBytes?: number;
  /** Show the new sheet when done (default true). */
  readonly activate?: boolean;
  /** Rows a worksheet holds, header included: Excel's 1,048,576 unless a test wants a small grid. */
  readonly maxSheetRows?: number;
}

export interface WriteTableResult {
  readonly sheetName: string;
  /** The table's address on its sheet, header included, e.g. "A1:AX100001". */
  readonly address: string;
  readonly rowsWritten: number;
  /** `context.sync()` calls the write made: one per chunk plus setup and finish. */
  readonly requests: number;
  readonly largestChunkBytes: number;
}

/**
 * Autofit measures every cell it covers; on 100,000 rows that is slow in Excel. The header and the first rows
 * show the widths a person needs to read the table.
 */
const AUTOFIT_ROWS = 500;

function uniqueHeaders(headers: readonly string[]): string[] {
  const used = new Set<string>();
  return headers.map((header) => {
    const base = header.trim() === "" ? "Column" : asLiteralText(header);
    let candidate = base;
    for (let n = 2; used.has(candidate.toUpperCase()); n++) candidate = `${base} (${n})`;
    used.add(candidate.toUpperCase());
    return candidate;
  });
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The write was cancelled.", "AbortError");
}

/**
 * Writes a header and rows as an Excel table on a new worksheet, in requests that each stay under Excel's
 * payload limit: number formats per column, a frozen header row, fitted columns. Every row is written exactly
 * once, in order; `onProgress` follows each request.
 */
export async function writeTable(
  context: Excel.RequestContext,
  data: TableData,
  options: WriteTableOptions,
): Promise<WriteTableResult> {
  const columnCount = data.columns.length;
  const totalRows = data.rows.length;
  if (columnCount === 0) throw new Error("Nothing to write: the table has no columns.");
  const maxDataRows = dataRowsPerSheet(options.maxSheetRows ?? EXCEL_MAX_ROWS);
  if (totalRows > maxDataRows || columnCount > EXCEL_MAX_COLUMNS) {
    throw new RangeError(
      `The table has ${totalRows.toLocaleString("en-US")} rows and ${columnCount} columns; a worksheet holds at most ${maxDataRows.toLocaleString("en-US")} rows under the header and ${EXCEL_MAX_COLUMNS.toLocaleString("en-US")} columns. Split it across sheets, or narrow the export (fewer properties or a shorter date range).`,
    );
  }
  const budget = options.requestBudgetBytes ?? DEFAULT_REQUEST_BUDGET_BYTES;
  if (options.signal?.aborted) throw abortError(options.signal);

  const sheetName = await freeSheetName(context, options.sheetName);
  const sheet = context.workbook.worksheets.add(sheetName);
  sheet.getRangeByIndexes(0, 0, 1, columnCount).values = [uniqueHeaders(data.columns.map((c) => c.header))];
  // Formats go on whole columns before any value lands: one cell's worth of payload per column ("single input
  // copy": Excel applies a 1x1 input to every cell of the range, as Ctrl+Enter does, the way Microsoft's own
  // table tutorial formats a column), and a text column formatted "@" keeps "021621" as text when the values
  // arrive.
  data.columns.forEach((column, index) => {
    const format = NUMBER_FORMAT_BY_KIND[column.kind];
    if (format !== "General" && totalRows > 0) {
      sheet.getRangeByIndexes(1, index, totalRows, 1).numberFormat = [[format]];
    }
  });
  await context.sync();
  let requests = 2;
  const rowBytes = (index: number) => jsonByteLength(data.rows[index]) + 1;

  let rowsWritten = 0;
  let largestChunkBytes = 0;
  try {
    for (const chunk of rowChunks(totalRows, rowBytes, budget)) {
      if (options.signal?.aborted) throw abortError(options.signal);
      sheet.getRangeByIndexes(1 + chunk.start, 0, chunk.end - chunk.start, columnCount).values =
        data.rows.slice(chunk.start, chunk.end) as CellValue[][];
      await context.sync();
      requests++;
      rowsWritten = chunk.end;
      largestChunkBytes = Math.max(largestChunkBytes, chunk.bytes);
      options.onProgress?.({ rowsWritten, totalRows });
    }
  } catch (error) {
    await discardSheet(context, sheet);
    throw error;
  }

  const address = rectAddress({ row: 0, column: 0, rowCount: Math.max(totalRows, 1) + 1, columnCount });
  sheet.tables.add(address, true);
  sheet.freezePanes.freezeRows(1);
  sheet.getRangeByIndexes(0, 0, Math.min(totalRows, AUTOFIT_ROWS) + 1, columnCount).format.autofitColumns();
  if (options.activate ?? true) sheet.activate();
  await context.sync();
  requests++;
  return { sheetName, address, rowsWritten, requests, largestChunkBytes };
}

/** Best effort: the write already failed or was cancelled, and that error is the one the caller must see. */
async function discardSheet(context: Excel.RequestContext, sheet: Excel.Worksheet): Promise<void> {
  try {
    sheet.delete();
    await context.sync();
  } catch {
    // The sheet stays; its name says what it is and the caller reports the original failure.
  }
}
