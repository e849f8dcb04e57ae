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
 * `getSpillingToRangeOrNullObject` gives its spill. That is two syncs whatever the target's size; what they
 * carry grows with the used cells above the target (their formulas) and the formulas among them.
 * `Range.getUsedRangeOrNullObject` is ExcelApi 1.4 and the spill methods ExcelApi 1.12, the manifest's minimum,
 * so every host that loads the add-in has them.
 */
import { cellAddress, rectAddress, rectContains, type CellRect } from "../../excel/a1";
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
 * Queues the read of every formula that could spill into `area` (the used cells above and left of its far
 * corner); `spillsOver` then reads their spills. Split so a caller can read more in the same sync.
 */
function formulasReaching(sheet: Excel.Worksheet, area: CellRect): Excel.Range {
  const reach = sheet
    .getRangeByIndexes(0, 0, area.row + area.rowCount, area.column + area.columnCount)
    .getUsedRangeOrNullObject();
  reach.load(["formulas", ...RECT_PROPERTIES]);
  return reach;
}

/** The spills (anchor included) of the formulas `reach` read that cover a cell of `area`: one sync. */
async function spillsOver(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  reach: Excel.Range,
  area: CellRect,
): Promise<CellRect[]> {
  if (reach.isNullObject) return [];
  const spills: Excel.Range[] = [];
  reach.formulas.forEach((row, r) =>
    row.forEach((formula, c) => {
      if (typeof formula !== "string" || !formula.startsWith("=")) return;
      const spill = sheet
        .getRangeByIndexes(reach.rowIndex + r, reach.columnIndex + c, 1, 1)
        .getSpillingToRangeOrNullObject();
      spill.load(RECT_PROPERTIES);
      spills.push(spill);
    }),
  );
  if (spills.length === 0) return [];
  await context.sync();
  return spills
    .filter((spill) => !spill.isNullObject)
    .map(rectOf)
    .filter((spill) => rectsOverlap(spill, area));
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
 * the spill it belongs to, outside every spill. Reads the sheet (three syncs); writes nothing.
 */
export async function placeBesideSelection(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  selection: CellRect,
  width: number,
): Promise<BlockPlace> {
  const used = sheet.getUsedRangeOrNullObject();
  used.load(RECT_PROPERTIES);
  // Every column to the sheet's end over the selection's rows: the block goes somewhere right of it.
  const rows = { ...selection, column: 0, columnCount: EXCEL_MAX_COLUMNS };
  const reach = formulasReaching(sheet, rows);
  await context.sync();
  const spills = await spillsOver(context, sheet, reach, rows);
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
  const window = sheet.getRangeByIndexes(at.row, at.column, at.rowCount, at.columnCount);
  window.load("formulas");
  await context.sync();
  const offset = firstFreeOffset(markSpills(window.formulas, at, spills), width);
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
  const reach = formulasReaching(sheet, rect);
  await context.sync();
  const [spill] = await spillsOver(context, sheet, reach, rect);
  const notFree = (why: string) =>
    new PaneInputError(
      `${rectAddress(rect)} is not empty (${why}): select an empty cell with room for ${rect.columnCount === 1 ? "the formula" : `${rect.columnCount} formulas across`}.`,
    );
  if (firstFreeOffset(target.formulas, rect.columnCount) !== 0) throw notFree("it holds data");
  // A spill's blank cells show nothing, so the formula they belong to is named.
  if (spill) throw notFree(`part of the spill of ${cellAddress(spill.row, spill.column)}`);
}
