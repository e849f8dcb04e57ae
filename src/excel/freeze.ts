import { parseCellAddress, rectContains, type CellRect } from "./a1";
import { BudgetedBatch } from "./budgetedBatch";
import { resolveScope, type FormulaScope, type ScopeArea } from "./formulaScope";
import {
  appendFrozenFormulas,
  FROZEN_STORE_SHEET_NAME,
  readFrozenStore,
  replaceFrozenFormulas,
  type FrozenFormula,
} from "./frozenFormulaStore";
import { asLiteralText } from "./literalText";
import { jsonByteLength } from "./requestPayload";
import { findRentFormulaCells, FORMULA_READ_BLOCK_CELLS, type RentFormulaCell } from "./rentFormulas";

export interface FreezeOptions {
  readonly requestBudgetBytes?: number;
}

export interface FreezeResult {
  /** The formulas replaced by their values, now kept for `restoreRentFormulas`. */
  readonly frozen: readonly FrozenFormula[];
}

export interface RestoreResult {
  readonly restored: readonly FrozenFormula[];
  /** Sheets of kept formulas that no longer exist; their formulas stay kept. */
  readonly missingSheets: readonly string[];
}

/** Anchors whose spill size is asked per request: a few hundred bytes of request each. */
const SPILL_LOOKUPS_PER_REQUEST = 2_000;

function cellRange(context: Excel.RequestContext, sheetName: string, rect: CellRect): Excel.Range {
  return context.workbook.worksheets
    .getItem(sheetName)
    .getRangeByIndexes(rect.row, rect.column, rect.rowCount, rect.columnCount);
}

/** How far each formula's result reaches: one cell, or its whole spill. */
async function resultRects(
  context: Excel.RequestContext,
  cells: readonly RentFormulaCell[],
): Promise<CellRect[]> {
  const rects: CellRect[] = [];
  for (let first = 0; first < cells.length; first += SPILL_LOOKUPS_PER_REQUEST) {
    const group = cells.slice(first, first + SPILL_LOOKUPS_PER_REQUEST);
    const spills = group.map((cell) => {
      const anchor = cellRange(context, cell.sheetName, {
        row: cell.row,
        column: cell.column,
        rowCount: 1,
        columnCount: 1,
      });
      const spill = anchor.getSpillingToRangeOrNullObject();
      spill.load("rowCount,columnCount");
      return spill;
    });
    await context.sync();
    group.forEach((cell, index) => {
      const spill = spills[index];
      const spilled = spill !== undefined && !spill.isNullObject;
      rects.push({
        row: cell.row,
        column: cell.column,
        rowCount: spilled ? spill.rowCount : 1,
        columnCount: spilled ? spill.columnCount : 1,
      });
    });
  }
  return rects;
}

/** The values each result shows now, read in requests of bounded size (responses share the 5 MB ceiling). */
async function currentValues(
  context: Excel.RequestContext,
  cells: readonly RentFormulaCell[],
  rects: readonly CellRect[],
): Promise<unknown[][][]> {
  const values: unknown[][][] = [];
  let index = 0;
  while (index < cells.length) {
    const ranges: Excel.Range[] = [];
    let cellCount = 0;
    do {
      const rect = rects[index];
      const cell = cells[index];
      if (!rect || !cell) break;
      const range = cellRange(context, cell.sheetName, rect);
      range.load("values");
      ranges.push(range);
      cellCount += rect.rowCount * rect.columnCount;
      index++;
    } while (index < cells.length && cellCount < FORMULA_READ_BLOCK_CELLS);
    await context.sync();
    // A shown text such as "=x" or "-" must come back as that text, not as a formula.
    for (const range of ranges) {
      values.push(
        range.values.map((row) => row.map((v: unknown) => (typeof v === "string" ? asLiteralText(v) : v))),
      );
    }
  }
  return values;
}

/**
 * Replaces the RENT formulas in the scope with the values they show (spills included), so the workbook reads
 * the same for someone without the add-in. The formulas are kept in the workbook first, then overwritten:
 * `restoreRentFormulas` puts them back.
 */
export async function freezeRentFormulas(
  context: Excel.RequestContext,
  scope: FormulaScope,
  options: FreezeOptions = {},
): Promise<FreezeResult> {
  const cells = await findRentFormulaCells(context, scope);
  if (cells.length === 0) return { frozen: [] };
  const rects = await resultRects(context, cells);
  const values = await currentValues(context, cells, rects);
  const frozen = cells.map((cell, index) => ({
    sheetName: cell.sheetName,
    address: cell.address,
    formula: cell.formula,
    rowCount: rects[index]?.rowCount ?? 1,
    columnCount: rects[index]?.columnCount ?? 1,
  }));

  await appendFrozenFormulas(context, await readFrozenStore(context), frozen);

  const batch = new BudgetedBatch(context, options.requestBudgetBytes);
  for (const [index, cell] of cells.entries()) {
    const rect = rects[index];
    const shown = values[index];
    if (!rect || !shown) continue;
    await batch.add(jsonByteLength(shown) + 64, () => {
      cellRange(context, cell.sheetName, rect).values = shown;
    });
  }
  await batch.flush();
  return { frozen };
}

function inScope(entry: FrozenFormula, areas: readonly ScopeArea[]): boolean {
  const { row, column } = parseCellAddress(entry.address);
  return areas.some(
    (area) =>
      area.sheetName.toUpperCase() === entry.sheetName.toUpperCase() &&
      (!area.rect || rectContains(area.rect, row, column)),
  );
}

/**
 * Puts frozen formulas back in the scope: clears what each one showed (so an array can spill again) and enters
 * the formula, which Excel then calculates. What was restored leaves the store; the rest stays kept.
 */
export async function restoreRentFormulas(
  context: Excel.RequestContext,
  scope: FormulaScope,
  options: FreezeOptions = {},
): Promise<RestoreResult> {
  const store = await readFrozenStore(context);
  if (store.entries.length === 0) return { restored: [], missingSheets: [] };
  const areas = await resolveScope(context, scope, [FROZEN_STORE_SHEET_NAME]);
  const restored = store.entries.filter((entry) => inScope(entry, areas));
  const kept = store.entries.filter((entry) => !inScope(entry, areas));
  const existing = new Set(
    scope.kind === "workbook" ? areas.map((area) => area.sheetName.toUpperCase()) : [],
  );
  const missingSheets =
    scope.kind === "workbook"
      ? [...new Set(kept.filter((e) => !existing.has(e.sheetName.toUpperCase())).map((e) => e.sheetName))]
      : [];

  const batch = new BudgetedBatch(context, options.requestBudgetBytes);
  for (const entry of restored) {
    const { row, column } = parseCellAddress(entry.address);
    await batch.add(jsonByteLength(entry) + 64, () => {
      const sheet = context.workbook.worksheets.getItem(entry.sheetName);
      if (entry.rowCount > 1 || entry.columnCount > 1) {
        sheet.getRangeByIndexes(row, column, entry.rowCount, entry.columnCount).clear("Contents");
      }
      sheet.getRangeByIndexes(row, column, 1, 1).formulas = [[entry.formula]];
    });
  }
  await batch.flush();
  if (restored.length > 0) await replaceFrozenFormulas(context, store, kept);
  return { restored, missingSheets };
}
