import { cellAddress } from "./a1";
import { isRentFormula } from "./rentFormulas";

/** The selected cell as the pane explains it: where its formula is (the anchor when it is part of a spill). */
export interface SelectedFormula {
  readonly sheetName: string;
  /** The formula's cell ("B3"): the selected cell, or the anchor of the spill it is part of. */
  readonly address: string;
  /** The RENT formula there; undefined when the cell holds none. */
  readonly formula: string | undefined;
}

/**
 * The formula behind the active cell of the selection: a cell of a spilled block is explained by the formula
 * that spilled it (Range.getSpillParentOrNullObject, ExcelApi 1.12).
 */
export async function readSelectedFormula(context: Excel.RequestContext): Promise<SelectedFormula> {
  const selection = context.workbook.getSelectedRange();
  selection.load("rowIndex,columnIndex");
  const sheet = selection.worksheet;
  sheet.load("name");
  await context.sync();
  const cell = sheet.getRangeByIndexes(selection.rowIndex, selection.columnIndex, 1, 1);
  const parent = cell.getSpillParentOrNullObject();
  parent.load("rowIndex,columnIndex,formulas");
  cell.load("formulas");
  await context.sync();
  const anchor = parent.isNullObject ? cell : parent;
  const row = parent.isNullObject ? selection.rowIndex : parent.rowIndex;
  const column = parent.isNullObject ? selection.columnIndex : parent.columnIndex;
  const formula: unknown = anchor.formulas[0]?.[0];
  return {
    sheetName: sheet.name,
    address: cellAddress(row, column),
    formula: isRentFormula(formula) ? formula : undefined,
  };
}

/** Calls `listener` after each change of the selection (Workbook.onSelectionChanged, ExcelApi 1.2). */
export async function followSelection(context: Excel.RequestContext, listener: () => void): Promise<void> {
  context.workbook.onSelectionChanged.add(async () => {
    listener();
    return Promise.resolve();
  });
  await context.sync();
}
