import type { CellRect } from "./a1";

/** A cell of a sheet, zero-based. */
export interface SheetCell {
  readonly sheetName: string;
  readonly row: number;
  readonly column: number;
}

/**
 * Cells whose spill is asked per request: each lookup is a range, its spill and a load, a few hundred bytes of
 * request, so 2,000 stay far under Excel's 5 MB.
 */
export const SPILL_LOOKUPS_PER_REQUEST = 2_000;

/**
 * The spill of each cell (Range.getSpillingToRangeOrNullObject, ExcelApi 1.12), anchor included, or undefined
 * for a cell that spills nothing; asked in requests of bounded size however many cells there are.
 */
export async function spillsOf(
  context: Excel.RequestContext,
  cells: readonly SheetCell[],
): Promise<(CellRect | undefined)[]> {
  const spills: (CellRect | undefined)[] = [];
  for (let first = 0; first < cells.length; first += SPILL_LOOKUPS_PER_REQUEST) {
    const lookups = cells.slice(first, first + SPILL_LOOKUPS_PER_REQUEST).map((cell) => {
      const spill = context.workbook.worksheets
        .getItem(cell.sheetName)
        .getRangeByIndexes(cell.row, cell.column, 1, 1)
        .getSpillingToRangeOrNullObject();
      spill.load("rowIndex,columnIndex,rowCount,columnCount");
      return spill;
    });
    await context.sync();
    for (const spill of lookups) {
      spills.push(
        spill.isNullObject
          ? undefined
          : {
              row: spill.rowIndex,
              column: spill.columnIndex,
              rowCount: spill.rowCount,
              columnCount: spill.columnCount,
            },
      );
    }
  }
  return spills;
}
