/**
 * Where the Insert button's formulas go. A block formula over a selected column goes to the first free cells
 * beside it: never inside the spill the selection belongs to (writing there turns that formula into #SPILL!),
 * never over cells holding data or spilled values. Formulas for one selected cell go exactly there, or nowhere
 * when those cells are not free.
 *
 * `Range.getSpillParentOrNullObject` and `getSpillingToRangeOrNullObject` are ExcelApi 1.12, the minimum the
 * manifest requires, so every host that loads the add-in has them.
 */
import { rectAddress, type CellRect } from "../../excel/a1";
import { EXCEL_MAX_COLUMNS } from "../../excel/sheetLimits";
import { PaneInputError } from "../paneInputError";

/** The rectangle of a loaded range (its rowIndex, columnIndex, rowCount and columnCount). */
function rectOf(range: Excel.Range): CellRect {
  return {
    row: range.rowIndex,
    column: range.columnIndex,
    rowCount: range.rowCount,
    columnCount: range.columnCount,
  };
}

const RECT_PROPERTIES = ["rowIndex", "columnIndex", "rowCount", "columnCount"];

/** A cell is free when it shows nothing: `formulas` reads a formula, a constant or a spilled value. */
const isFree = (formula: unknown) => formula === "" || formula === null || formula === undefined;

/**
 * The first column offset at which `width` columns are free in every row of `formulas` (a window's grid, its
 * first column at offset 0), or undefined when the window has no such place.
 */
export function firstFreeOffset(
  formulas: readonly (readonly unknown[])[],
  width: number,
): number | undefined {
  const columns = formulas[0]?.length ?? 0;
  let run = 0;
  for (let column = 0; column < columns; column++) {
    run = formulas.every((row) => isFree(row[column])) ? run + 1 : 0;
    if (run === width) return column - width + 1;
  }
  return undefined;
}

export interface BlockPlace {
  /** Where the block goes. */
  rect: CellRect;
  /** The cells right beside the selection when they were not free (the place the block skipped), else undefined. */
  skipped?: CellRect;
  /** The spill the selection belongs to, when it does. */
  sourceSpill?: CellRect;
}

/**
 * The first free place, `width` columns wide over the selection's rows, to the right of the selection and of
 * the spill it belongs to. Reads the sheet (three syncs at most); writes nothing.
 */
export async function placeBesideSelection(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  selection: CellRect,
  width: number,
): Promise<BlockPlace> {
  const parent = sheet.getRangeByIndexes(selection.row, selection.column, 1, 1).getSpillParentOrNullObject();
  const used = sheet.getUsedRangeOrNullObject(true);
  used.load(RECT_PROPERTIES);
  await context.sync();
  let sourceSpill: CellRect | undefined;
  if (!parent.isNullObject) {
    const spill = parent.getSpillingToRangeOrNullObject();
    spill.load(RECT_PROPERTIES);
    await context.sync();
    if (!spill.isNullObject) sourceSpill = rectOf(spill);
  }

  const beside = selection.column + selection.columnCount;
  const start = Math.max(beside, sourceSpill ? sourceSpill.column + sourceSpill.columnCount : beside);
  // Past the used range every cell is free, so the window always ends with a free place if the sheet has room.
  const usedEnd = used.isNullObject ? 0 : used.columnIndex + used.columnCount;
  const end = Math.min(Math.max(start, usedEnd) + width, EXCEL_MAX_COLUMNS);
  const noRoom = () =>
    new PaneInputError(
      `No ${width} free columns right of ${rectAddress(selection)}: select the cells in a sheet with room to their right.`,
    );
  if (end - start < width) throw noRoom();
  const window = sheet.getRangeByIndexes(selection.row, start, selection.rowCount, end - start);
  window.load("formulas");
  await context.sync();
  const offset = firstFreeOffset(window.formulas, width);
  if (offset === undefined) throw noRoom();
  const rect = {
    row: selection.row,
    column: start + offset,
    rowCount: selection.rowCount,
    columnCount: width,
  };
  const natural = { ...rect, column: beside };
  return {
    rect,
    ...(rect.column === beside ? {} : { skipped: natural }),
    ...(sourceSpill ? { sourceSpill } : {}),
  };
}

/** Refuses cells that are not free: formulas for one selected cell go exactly where the person chose. */
export async function requireFree(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  rect: CellRect,
): Promise<void> {
  const target = sheet.getRangeByIndexes(rect.row, rect.column, rect.rowCount, rect.columnCount);
  target.load("formulas");
  const parent = sheet.getRangeByIndexes(rect.row, rect.column, 1, 1).getSpillParentOrNullObject();
  parent.load(RECT_PROPERTIES);
  await context.sync();
  const inSpill = !parent.isNullObject;
  if (inSpill || firstFreeOffset(target.formulas, rect.columnCount) !== 0) {
    throw new PaneInputError(
      `${rectAddress(rect)} is not empty (${inSpill ? "part of a spilled formula" : "it holds data"}): select an empty cell with room for ${rect.columnCount === 1 ? "the formula" : `${rect.columnCount} formulas across`}.`,
    );
  }
}
