import type { CellRect } from "./a1";

/** Where a refresh, a freeze or a restore applies. The sheet defaults to the active one. */
export type FormulaScope =
  | { readonly kind: "workbook" }
  | { readonly kind: "sheet"; readonly sheetName?: string }
  | { readonly kind: "selection" };

/** One sheet, or the part of it inside `rect`. */
export interface ScopeArea {
  readonly sheetName: string;
  readonly rect?: CellRect;
}

/**
 * The sheets (and for a selection, the rectangle) a scope covers. Sheets in `excludedSheets` (the add-in's own
 * storage) are never part of a workbook scope.
 */
export async function resolveScope(
  context: Excel.RequestContext,
  scope: FormulaScope,
  excludedSheets: readonly string[] = [],
): Promise<ScopeArea[]> {
  if (scope.kind === "workbook") {
    const sheets = context.workbook.worksheets;
    sheets.load("items/name");
    await context.sync();
    const excluded = new Set(excludedSheets.map((name) => name.toUpperCase()));
    return sheets.items
      .map((sheet) => ({ sheetName: sheet.name }))
      .filter((a) => !excluded.has(a.sheetName.toUpperCase()));
  }
  if (scope.kind === "sheet") {
    if (scope.sheetName !== undefined) return [{ sheetName: scope.sheetName }];
    const active = context.workbook.worksheets.getActiveWorksheet();
    active.load("name");
    await context.sync();
    return [{ sheetName: active.name }];
  }
  const selection = context.workbook.getSelectedRange();
  selection.load("rowIndex,columnIndex,rowCount,columnCount");
  selection.worksheet.load("name");
  await context.sync();
  return [
    {
      sheetName: selection.worksheet.name,
      rect: {
        row: selection.rowIndex,
        column: selection.columnIndex,
        rowCount: selection.rowCount,
        columnCount: selection.columnCount,
      },
    },
  ];
}
