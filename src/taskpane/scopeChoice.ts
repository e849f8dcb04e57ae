import type { FormulaScope } from "../excel/formulaScope";

/** The scope picked in a "RENT formulas in" list: workbook, this sheet (the active one) or the selection. */
export function scopeOf(value: string): FormulaScope {
  if (value === "sheet") return { kind: "sheet" };
  if (value === "selection") return { kind: "selection" };
  return { kind: "workbook" };
}
