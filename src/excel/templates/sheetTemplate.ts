/**
 * A sheet template: input cells a person changes (a market, property ids, dates) and RENT formulas that refer
 * to them, each with the format its field has in the catalogue (src/tables/columnKinds.ts), so the sheet reads
 * right on hosts whose formulas return plain numbers too. Written to a new worksheet in one batch.
 */
import { parseCellAddress, type CellRect } from "../a1";
import { freeSheetName } from "../sheetNames";
import type { CellValue } from "../../tables/tableData";
import type { TemplateChart } from "./templateCharts";

/** Rows 1 and 2 hold a template's title and what to change. */
export const TITLE_ROWS = 2;

export interface TemplateCell {
  /** "B3", or a range such as "A13:A40" for a format that covers where a formula spills. */
  readonly at: string;
  /** A value to type (an input or a label) or a formula ("=RENT..."). */
  readonly entry?: CellValue;
  readonly numberFormat?: string;
}

export interface SheetTemplate {
  /** The new sheet's name; a number is added when the workbook has one by that name. */
  readonly sheetName: string;
  readonly cells: readonly TemplateCell[];
  /** Charts of the template's RENT blocks, made once each block has answered (templateCharts.ts). */
  readonly charts?: readonly TemplateChart[];
}

export interface WrittenTemplate {
  readonly sheetName: string;
  /** Formulas that call a RENT function. */
  readonly formulaCount: number;
  /** Plain Excel formulas (over the RENT formulas' results and the inputs). */
  readonly worksheetFormulaCount: number;
}

const callsRent = (formula: string) => /\bRENT\./i.test(formula);

function rectOf(at: string): CellRect {
  const [first = "", last = first] = at.split(":");
  const start = parseCellAddress(first);
  const end = parseCellAddress(last);
  return {
    row: start.row,
    column: start.column,
    rowCount: end.row - start.row + 1,
    columnCount: end.column - start.column + 1,
  };
}

/** Adds the template as a new worksheet, activates it, and fits its columns. */
export async function writeTemplate(
  context: Excel.RequestContext,
  template: SheetTemplate,
): Promise<WrittenTemplate> {
  const sheetName = await freeSheetName(context, template.sheetName);
  const sheet = context.workbook.worksheets.add(sheetName);
  const range = (at: string) => {
    const { row, column, rowCount, columnCount } = rectOf(at);
    return sheet.getRangeByIndexes(row, column, rowCount, columnCount);
  };
  // Formats first: a formula's first result then shows formatted on hosts that format by cell.
  for (const cell of template.cells) {
    if (cell.numberFormat === undefined) continue;
    const { rowCount, columnCount } = rectOf(cell.at);
    range(cell.at).numberFormat = Array.from({ length: rowCount }, () =>
      Array<string>(columnCount).fill(cell.numberFormat as string),
    );
  }
  let formulaCount = 0;
  let worksheetFormulaCount = 0;
  for (const cell of template.cells) {
    if (cell.entry === undefined) continue;
    if (typeof cell.entry === "string" && cell.entry.startsWith("=")) {
      if (callsRent(cell.entry)) formulaCount++;
      else worksheetFormulaCount++;
    }
    range(cell.at).formulas = [[cell.entry]];
  }
  sheet.activate();
  // The title and the hint above the inputs (rows 1 and 2) may run across columns: they are not fitted.
  const rects = template.cells.map((cell) => rectOf(cell.at)).filter((rect) => rect.row >= TITLE_ROWS);
  const rows = Math.max(TITLE_ROWS + 1, ...rects.map((rect) => rect.row + rect.rowCount));
  const columns = Math.max(1, ...rects.map((rect) => rect.column + rect.columnCount));
  sheet.getRangeByIndexes(TITLE_ROWS, 0, rows - TITLE_ROWS, columns).format.autofitColumns();
  await context.sync();
  return { sheetName, formulaCount, worksheetFormulaCount };
}
