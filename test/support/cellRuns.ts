import { rectContains, type CellRect } from "../../src/excel/a1";

/**
 * The cells at `keys` ("row,column") inside `within` as areas, one per run of neighbours along a row, in row
 * order: how the stand-ins answer Range.getSpecialCellsOrNullObject.
 */
export function cellRuns(keys: Iterable<string>, within: CellRect): CellRect[] {
  const cells: [number, number][] = [];
  for (const key of keys) {
    const [row = 0, column = 0] = key.split(",").map(Number);
    if (rectContains(within, row, column)) cells.push([row, column]);
  }
  cells.sort(([rowA, columnA], [rowB, columnB]) => rowA - rowB || columnA - columnB);
  const runs: { row: number; column: number; rowCount: number; columnCount: number }[] = [];
  for (const [row, column] of cells) {
    const last = runs[runs.length - 1];
    if (last && last.row === row && last.column + last.columnCount === column) last.columnCount++;
    else runs.push({ row, column, rowCount: 1, columnCount: 1 });
  }
  return runs;
}
