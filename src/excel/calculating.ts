import { readBounded } from "./boundedReads";
import type { RentFormulaCell } from "./rentFormulas";

const BUSY = "#BUSY!";

/**
 * How many of `cells` still show #BUSY! (Excel's value of a custom function call that has not answered): read
 * from each formula's own cell, in requests of bounded size.
 */
export async function countStillCalculating(
  context: Excel.RequestContext,
  cells: readonly RentFormulaCell[],
): Promise<number> {
  const reads = cells.map(({ sheetName, row, column }) => ({
    sheetName,
    rect: { row, column, rowCount: 1, columnCount: 1 },
  }));
  const shown = await readBounded(context, reads, ["values"]);
  return shown.filter((grid) => grid.values[0]?.[0] === BUSY).length;
}
