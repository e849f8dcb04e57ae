/**
 * Where the Insert button's formulas go. A block formula over a selected column goes to the first free cells
 * beside it: never inside any spill (the one the selection belongs to or another formula's: writing there turns
 * that formula into #SPILL!), never over cells holding data or spilled values. Formulas for one selected cell go
 * exactly there, or nowhere when those cells are not free.
 *
 * A spilled cell whose value is blank reads "" like an empty cell, and `Range.getSpillParentOrNullObject`
 * answers for one cell only (a null object for a range of several), so the spills over a target are found
 * from the formulas that could reach it: a spill runs right and down from its anchor, so only formulas in the
 * used part of the sheet above and left of the target's far corner can, and each one's
 * `getSpillingToRangeOrNullObject` gives its spill. The formulas are found with
 * `Range.getSpecialCellsOrNullObject` (ExcelApi 1.9), which answers with their areas, never the used cells'
 * contents (beside a units export that would be megabytes); their spills and the cells beside the selection
 * are read in requests sized under Excel's 5 MB. `Worksheet.getUsedRangeOrNullObject` is ExcelApi 1.4 and
 * the spill methods ExcelApi 1.12, the manifest's minimum, so every host that loads the add-in has them.
 */
import { cellAddress, rectAddress, rectContains, type CellRect } from "../../excel/a1";
import { readBounded } from "../../excel/boundedReads";
import { formulaAreas, RECT_PROPERTIES } from "../../excel/rentFormulas";
import { EXCEL_MAX_COLUMNS } from "../../excel/sheetLimits";
import { spillsOf } from "../../excel/spillLookups";
import { PaneInputError } from "../paneInputError";

/** A cell is free when it shows nothing: `formulas` reads a formula, a constant or a spilled value. */
const isFree = (formula: unknown) => formula === "" || formula === null || formula === undefined;

/** What a spilled cell reads as in a grid marked by `markSpills`: never free, even when its value is blank. */
const SPILLED = Symbol("spilled");

export function rectsOverlap(a: CellRect, b: CellRect): boolean {
  return (
    a.row < b.row + b.rowCount &&
    b.row < a.row + a.rowCount &&
    a.column < b.column + b.columnCount &&
    b.column < a.column + a.columnCount
  );
}

/**
 * The grid of `formulas` (read over `at`) with every cell inside one of `spills` marked as taken: a blank
 * value of a spill reads "" as an empty cell does, and writing there would break that spill.
 */
export function markSpills(
  formulas: readonly (readonly unknown[])[],
  at: CellRect,
  spills: readonly CellRect[],
): unknown[][] {
  return formulas.map((row, r) =>
    row.map((formula, c) =>
      spills.some((spill) => rectContains(spill, at.row + r, at.column + c)) ? SPILLED : formula,
    ),
  );
}

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

/**
 * The spills (anchor included) of the formulas that could reach `area` and do cover a cell of it: two syncs,
 * the first of which carries whatever the caller queued.
 */
async function spillsOver(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  area: CellRect,
): Promise<CellRect[]> {
  sheet.load("name");
  const reach = {
    row: 0,
    column: 0,
    rowCount: area.row + area.rowCount,
    columnCount: area.column + area.columnCount,
  };
  const anchors = (await formulaAreas(context, sheet, reach)).flatMap((rect) =>
    Array.from({ length: rect.rowCount * rect.columnCount }, (_, i) => ({
      sheetName: sheet.name,
      row: rect.row + Math.floor(i / rect.columnCount),
      column: rect.column + (i % rect.columnCount),
    })),
  );
  const spills = await spillsOf(context, anchors);
  return spills.filter((spill): spill is CellRect => spill !== undefined && rectsOverlap(spill, area));
}

export interface BlockPlace {
  /** Where the block goes. */
  rect: CellRect;
  /** The cells right beside the selection when they were not free (the place the block skipped), else undefined. */
  skipped?: CellRect;
  /** The spill over the skipped cells, when one is (the first found). */
  skippedSpill?: CellRect;
  /** The spill the selection belongs to, when it does. */
  sourceSpill?: CellRect;
}

/**
 * The first free place, `width` columns wide over the selection's rows, to the right of the selection and of
 * the spill it belongs to, outside every spill. Reads the sheet; writes nothing.
 */
export async function placeBesideSelection(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  selection: CellRect,
  width: number,
): Promise<BlockPlace> {
  // Every column to the sheet's end over the selection's rows: the block goes somewhere right of it.
  const rows = { ...selection, column: 0, columnCount: EXCEL_MAX_COLUMNS };
  const used = sheet.getUsedRangeOrNullObject();
  used.load(RECT_PROPERTIES);
  const spills = await spillsOver(context, sheet, rows);
  const sourceSpill = spills.find((spill) => rectContains(spill, selection.row, selection.column));

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
  const at = { row: selection.row, column: start, rowCount: selection.rowCount, columnCount: end - start };
  const [window] = await readBounded(context, [{ sheetName: sheet.name, rect: at }], ["formulas"]);
  const offset = firstFreeOffset(markSpills(window?.formulas ?? [], at, spills), width);
  if (offset === undefined) throw noRoom();
  const rect = { ...at, column: start + offset, columnCount: width };
  if (rect.column === beside) return { rect, ...(sourceSpill ? { sourceSpill } : {}) };
  const skipped = { ...rect, column: beside };
  const skippedSpill = spills.find((spill) => rectsOverlap(spill, skipped));
  return {
    rect,
    skipped,
    ...(skippedSpill ? { skippedSpill } : {}),
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
  const [spill] = await spillsOver(context, sheet, rect);
  const notFree = (why: string) =>
    new PaneInputError(
      `${rectAddress(rect)} is not empty (${why}): select an empty cell with room for ${rect.columnCount === 1 ? "the formula" : `${rect.columnCount} formulas across`}.`,
    );
  if (firstFreeOffset(target.formulas, rect.columnCount) !== 0) throw notFree("it holds data");
  // A spill's blank cells show nothing, so the formula they belong to is named.
  if (spill) throw notFree(`part of the spill of ${cellAddress(spill.row, spill.column)}`);
}
