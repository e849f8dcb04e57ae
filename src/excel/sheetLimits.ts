/**
 * Excel's grid, as Microsoft documents it ("Excel worksheet and workbook limits", support.microsoft.com
 * c13798fc-f1d5-4e73-998d-c02268bc65ae): 1,048,576 rows by 16,384 columns on a worksheet, in every Excel of
 * the last fifteen years (desktop, web, Mac). An export longer than that needs more than one sheet.
 */
export const EXCEL_MAX_ROWS = 1_048_576;
export const EXCEL_MAX_COLUMNS = 16_384;

/** Rows of data a sheet holds under its header row. */
export function dataRowsPerSheet(maxSheetRows: number = EXCEL_MAX_ROWS): number {
  if (!Number.isInteger(maxSheetRows) || maxSheetRows < 2) {
    throw new RangeError(`A sheet must hold a header and at least one row; got ${maxSheetRows} rows.`);
  }
  return maxSheetRows - 1;
}

/** How many sheets, each with its own header row, a table of `rowCount` rows needs. */
export function sheetsNeeded(rowCount: number, maxSheetRows: number = EXCEL_MAX_ROWS): number {
  return Math.max(1, Math.ceil(rowCount / dataRowsPerSheet(maxSheetRows)));
}
