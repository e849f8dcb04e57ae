import { cellAddress, type CellRect } from "./a1";
import { readBounded } from "./boundedReads";
import { resolveScope, type FormulaScope, type ScopeArea } from "./formulaScope";
import { FROZEN_STORE_SHEET_NAME } from "./frozenFormulaStore";

/** A cell whose formula calls a RENT function. */
export interface RentFormulaCell {
  readonly sheetName: string;
  /** Zero-based. */
  readonly row: number;
  /** Zero-based. */
  readonly column: number;
  /** "B3": the cell on its sheet. */
  readonly address: string;
  readonly formula: string;
  /** What the cell shows (Excel's text for an error, e.g. "#N/A"), when the scan was asked to read it. */
  readonly value?: unknown;
}

export interface ScanOptions {
  /** Read what each cell shows as well as its formula. */
  readonly withValues?: boolean;
}

/** A RENT call anywhere in a formula (`=RENT.UNITS(...)`, `=IFERROR(RENT.PROPERTY(...),0)`), never inside a longer name. */
const RENT_CALL = /(^|[^A-Za-z0-9_.])RENT\.[A-Za-z][A-Za-z0-9_.]*\s*\(/i;

export function isRentFormula(formula: unknown): formula is string {
  return typeof formula === "string" && formula.startsWith("=") && RENT_CALL.test(formula);
}

/** Every RENT call of a formula, nested ones included; the "(" is looked at, not taken, so `RENT.A(RENT.B(` is two. */
const RENT_CALLS = /(?:^|[^A-Za-z0-9_.])RENT\.([A-Za-z][A-Za-z0-9_.]*)(?=\s*\()/gi;

/** The RENT functions a formula calls, by name in capitals ("PROPERTY"), once per call. */
export function rentFunctionsIn(formula: string): string[] {
  return [...formula.matchAll(RENT_CALLS)].map((match) => (match[1] ?? "").toUpperCase());
}

/** What a range's rectangle is loaded as. */
export const RECT_PROPERTIES = ["rowIndex", "columnIndex", "rowCount", "columnCount"];

/** The rectangle of a range loaded with RECT_PROPERTIES. */
export function rectOf(range: Excel.Range): CellRect {
  return {
    row: range.rowIndex,
    column: range.columnIndex,
    rowCount: range.rowCount,
    columnCount: range.columnCount,
  };
}

function intersect(a: CellRect, b: CellRect): CellRect | undefined {
  const row = Math.max(a.row, b.row);
  const column = Math.max(a.column, b.column);
  const rowEnd = Math.min(a.row + a.rowCount, b.row + b.rowCount);
  const columnEnd = Math.min(a.column + a.columnCount, b.column + b.columnCount);
  if (rowEnd <= row || columnEnd <= column) return undefined;
  return { row, column, rowCount: rowEnd - row, columnCount: columnEnd - column };
}

/** The part of the area that holds anything: a whole-column selection must not mean a million empty rows. */
async function usedPart(context: Excel.RequestContext, area: ScopeArea): Promise<CellRect | undefined> {
  const used = context.workbook.worksheets.getItem(area.sheetName).getUsedRangeOrNullObject(true);
  used.load(RECT_PROPERTIES);
  await context.sync();
  if (used.isNullObject) return undefined;
  const rect = rectOf(used);
  return area.rect ? intersect(rect, area.rect) : rect;
}

/**
 * The areas of `rect` on `sheet` that hold formulas (Range.getSpecialCellsOrNullObject, ExcelApi 1.9, within
 * the manifest's 1.12): one request whose answer is a few numbers per area, where reading every used cell's
 * formula would bring back an export's whole text. The null-object variant, because a sheet without formulas
 * is no error. Anything else queued on the context goes in the same request.
 */
export async function formulaAreas(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  rect: CellRect,
): Promise<CellRect[]> {
  const special = sheet
    .getRangeByIndexes(rect.row, rect.column, rect.rowCount, rect.columnCount)
    .getSpecialCellsOrNullObject("Formulas");
  special.areas.load(RECT_PROPERTIES.map((name) => `items/${name}`));
  await context.sync();
  if (special.isNullObject) return [];
  // Excel searches the whole used range when given a single cell (Go To Special), so the areas are clipped.
  return special.areas.items.flatMap((area) => intersect(rectOf(area), rect) ?? []);
}

async function scanArea(
  context: Excel.RequestContext,
  area: ScopeArea,
  options: ScanOptions,
): Promise<RentFormulaCell[]> {
  const used = await usedPart(context, area);
  if (!used) return [];
  const sheet = context.workbook.worksheets.getItem(area.sheetName);
  const rects = await formulaAreas(context, sheet, used);
  const properties = options.withValues ? (["formulas", "values"] as const) : (["formulas"] as const);
  const grids = await readBounded(
    context,
    rects.map((rect) => ({ sheetName: area.sheetName, rect })),
    properties,
  );
  const found: RentFormulaCell[] = [];
  rects.forEach((rect, index) => {
    const grid = grids[index] as Record<"formulas" | "values", unknown[][] | undefined>;
    grid.formulas?.forEach((rowFormulas, r) =>
      rowFormulas.forEach((formula, c) => {
        if (!isRentFormula(formula)) return;
        const row = rect.row + r;
        const column = rect.column + c;
        const cell = { sheetName: area.sheetName, row, column, address: cellAddress(row, column), formula };
        found.push(options.withValues ? { ...cell, value: grid.values?.[r]?.[c] } : cell);
      }),
    );
  });
  return found;
}

/** Every cell in the scope whose formula calls a RENT function (spill anchors only: spilled cells hold values). */
export async function findRentFormulaCells(
  context: Excel.RequestContext,
  scope: FormulaScope,
  options: ScanOptions = {},
): Promise<RentFormulaCell[]> {
  const areas = await resolveScope(context, scope, [FROZEN_STORE_SHEET_NAME]);
  const cells: RentFormulaCell[] = [];
  for (const area of areas) cells.push(...(await scanArea(context, area, options)));
  return cells;
}
