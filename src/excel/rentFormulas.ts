import { cellAddress, type CellRect } from "./a1";
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

/**
 * Cells read per request. Formulas are read back in the response, which has the same 5 MB ceiling: 20,000
 * cells leave room for formulas averaging over 200 characters.
 */
export const FORMULA_READ_BLOCK_CELLS = 20_000;

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
  used.load("rowIndex,columnIndex,rowCount,columnCount");
  await context.sync();
  if (used.isNullObject) return undefined;
  const rect = {
    row: used.rowIndex,
    column: used.columnIndex,
    rowCount: used.rowCount,
    columnCount: used.columnCount,
  };
  return area.rect ? intersect(rect, area.rect) : rect;
}

async function scanArea(
  context: Excel.RequestContext,
  area: ScopeArea,
  options: ScanOptions,
): Promise<RentFormulaCell[]> {
  const rect = await usedPart(context, area);
  if (!rect) return [];
  const sheet = context.workbook.worksheets.getItem(area.sheetName);
  const rowsPerBlock = Math.max(1, Math.floor(FORMULA_READ_BLOCK_CELLS / rect.columnCount));
  const found: RentFormulaCell[] = [];
  for (let first = rect.row; first < rect.row + rect.rowCount; first += rowsPerBlock) {
    const rowCount = Math.min(rowsPerBlock, rect.row + rect.rowCount - first);
    const block = sheet.getRangeByIndexes(first, rect.column, rowCount, rect.columnCount);
    block.load(options.withValues ? "formulas,values" : "formulas");
    await context.sync();
    const values = options.withValues ? block.values : undefined;
    block.formulas.forEach((rowFormulas: unknown[], r: number) =>
      rowFormulas.forEach((formula, c) => {
        if (!isRentFormula(formula)) return;
        const row = first + r;
        const column = rect.column + c;
        const cell = { sheetName: area.sheetName, row, column, address: cellAddress(row, column), formula };
        found.push(values ? { ...cell, value: values[r]?.[c] } : cell);
      }),
    );
  }
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
