import { isExportWaitText } from "../tables/exportWaitTexts";
import { resultsOf } from "./freeze";
import { enterAgain } from "./refresh";
import { findRentFormulaCells } from "./rentFormulas";

/**
 * What a RENT cell shows when it could not answer for want of a sign-in: #N/A ("Not signed in", or any other
 * "no data for you right now" reason, which a new sign-in may change), or #BUSY! (still calculating: a call
 * a sign-out let go of, or a workbook saved while it calculated). Excel reads errors back as their text. A
 * RENT.HISTORY cell still showing its export's wait lost its call with the runtime: it is unanswered too.
 */
const UNANSWERED = new Set(["#N/A", "#BUSY!"]);
const isUnanswered = (value: unknown) => UNANSWERED.has(String(value)) || isExportWaitText(value);

/**
 * After a sign-in: recalculates the workbook's RENT cells that show no answer, and only those. Excel desktop
 * does not run custom functions when a workbook opens, and a plain recalculation skips non-volatile ones, so a
 * cell showing a value keeps it; a full calculation would run every RENT cell of every open workbook (each a
 * request once the cache is cold). Returns how many cells were entered again.
 */
export async function recalculateUnanswered(): Promise<number> {
  return Excel.run(async (context) => {
    const cells = await findRentFormulaCells(context, { kind: "workbook" }, { withValues: true });
    const unanswered = cells.filter((cell) => isUnanswered(cell.value));
    if (unanswered.length > 0) await enterAgain(context, unanswered);
    return unanswered.length;
  });
}

/**
 * When the add-in's functions are loaded: enters again the RENT formulas that show #NAME?. A cell Excel
 * calculated before the add-in associated its functions (a workbook opened before the add-in loaded) keeps
 * #NAME? after they load until its formula is entered again (office-js #6355, #6611). Returns how many cells were entered again.
 */
export async function reenterUnresolvedNames(context: Excel.RequestContext): Promise<number> {
  const cells = await findRentFormulaCells(context, { kind: "workbook" }, { withValues: true });
  const unresolved = cells.filter((cell) => cell.value === "#NAME?");
  if (unresolved.length > 0) await enterAgain(context, unresolved);
  return unresolved.length;
}

/**
 * After the formulas' default account changed: recalculates every RENT cell of the workbook (a cell that names
 * no account answers for the new one), and no other formula, as the pane's Refresh does without its bypass of
 * the cache.
 */
export async function recalculateRentFormulas(): Promise<number> {
  return Excel.run(async (context) => {
    const cells = await findRentFormulaCells(context, { kind: "workbook" });
    if (cells.length > 0) await enterAgain(context, cells);
    return cells.length;
  });
}

/**
 * The workbook's RENT formulas, each with the cells its answer covers (its spill): what `recalculateRentFormulas`
 * would enter again, read without writing, so the pane can say what that costs first.
 */
export async function rentFormulaBlocks(): Promise<
  { formula: string; rowCount: number; columnCount: number }[]
> {
  return Excel.run(async (context) => {
    const cells = await findRentFormulaCells(context, { kind: "workbook" });
    return (await resultsOf(context, cells)).map(({ cell, rect }) => ({
      formula: cell.formula,
      rowCount: rect.rowCount,
      columnCount: rect.columnCount,
    }));
  });
}
