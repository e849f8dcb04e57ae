import { BudgetedBatch } from "./budgetedBatch";
import type { FormulaScope } from "./formulaScope";
import { jsonByteLength } from "../tables/payloadBytes";
import { findRentFormulaCells, type RentFormulaCell } from "./rentFormulas";

export interface RefreshOptions {
  /**
   * Called with the cells about to be recalculated, before Excel re-evaluates them: the place to tell the data
   * layer to bypass its cache for these calls.
   */
  readonly beforeRecalculate?: (cells: readonly RentFormulaCell[]) => void | Promise<void>;
  readonly requestBudgetBytes?: number;
}

export interface RefreshResult {
  readonly cells: readonly RentFormulaCell[];
}

/**
 * Recalculates the RENT formulas in the workbook, a sheet or the selection, and nothing else. Each formula is
 * entered again: Excel then evaluates that cell whether or not it thinks the cell is dirty, whereas
 * non-volatile custom functions are skipped by a plain recalculation, and a full recalculation would also redo
 * every other formula of the workbook.
 */
export async function refreshRentFormulas(
  context: Excel.RequestContext,
  scope: FormulaScope,
  options: RefreshOptions = {},
): Promise<RefreshResult> {
  const cells = await findRentFormulaCells(context, scope);
  if (cells.length === 0) return { cells };
  await options.beforeRecalculate?.(cells);
  await enterAgain(context, cells, options.requestBudgetBytes);
  return { cells };
}

/**
 * Enters each cell's formula again, in requests that stay under Excel's payload limit: Excel then evaluates
 * exactly these cells, whether or not it thinks they are dirty.
 */
export async function enterAgain(
  context: Excel.RequestContext,
  cells: readonly RentFormulaCell[],
  requestBudgetBytes?: number,
): Promise<void> {
  const batch = new BudgetedBatch(context, requestBudgetBytes);
  for (const cell of cells) {
    await batch.add(jsonByteLength(cell.formula) + cell.sheetName.length + 32, () => {
      const range = context.workbook.worksheets
        .getItem(cell.sheetName)
        .getRangeByIndexes(cell.row, cell.column, 1, 1);
      range.formulas = [[cell.formula]];
    });
  }
  await batch.flush();
}
