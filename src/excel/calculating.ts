import { FORMULA_READ_BLOCK_CELLS, type RentFormulaCell } from "./rentFormulas";

const BUSY = "#BUSY!";

/**
 * How many of `cells` still show #BUSY! (Excel's value of a custom function call that has not answered): read
 * from each formula's own cell, in requests of bounded size.
 */
export async function countStillCalculating(
  context: Excel.RequestContext,
  cells: readonly RentFormulaCell[],
): Promise<number> {
  let calculating = 0;
  for (let first = 0; first < cells.length; first += FORMULA_READ_BLOCK_CELLS) {
    const ranges = cells.slice(first, first + FORMULA_READ_BLOCK_CELLS).map((cell) => {
      const range = context.workbook.worksheets
        .getItem(cell.sheetName)
        .getRangeByIndexes(cell.row, cell.column, 1, 1);
      range.load("values");
      return range;
    });
    await context.sync();
    calculating += ranges.filter((range) => range.values[0]?.[0] === BUSY).length;
  }
  return calculating;
}
