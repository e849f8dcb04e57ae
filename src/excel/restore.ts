import { cellAddress, parseCellAddress, rectContains } from "./a1";
import { removeAsOfComments, uncommentedOnly, writeAsOfComments, type AsOfComment } from "./asOfComments";
import { BudgetedBatch } from "./budgetedBatch";
import {
  hostValuesProperty,
  withShownValues,
  writeShownValues,
  type FormulaResult,
  type ShownResult,
  type ValuesProperty,
} from "./freeze";
import { resolveScope, type FormulaScope, type ScopeArea } from "./formulaScope";
import {
  appendFrozenFormulas,
  entryKey,
  FROZEN_STORE_SHEET_NAME,
  readFrozenStore,
  replaceFrozenFormulas,
  type FrozenFormula,
} from "./frozenFormulaStore";
import { jsonByteLength } from "../tables/payloadBytes";

export interface RestoreOptions {
  readonly requestBudgetBytes?: number;
}

/** What a restore of a scope would put back, read before anything is written (the pane says its cost first). */
export interface RestorePlan {
  /** The kept formulas in the scope. */
  readonly entries: readonly FrozenFormula[];
  /** Sheets of kept formulas that no longer exist; their formulas stay kept. */
  readonly missingSheets: readonly string[];
}

/** A restored formula, the cells its frozen values covered and what they showed. */
export interface RestoredBlock extends ShownResult {
  readonly entry: FrozenFormula;
}

export interface RestoreResult {
  readonly restored: readonly FrozenFormula[];
  readonly missingSheets: readonly string[];
  /** What each restored formula's cells showed while frozen, to put back if the formula cannot answer. */
  readonly frozenValues: readonly RestoredBlock[];
  /** How `frozenValues` were read, and are written back. */
  readonly property: ValuesProperty;
}

/** A restored formula whose cells show an error where its frozen values showed none. */
export interface UnansweredRestore {
  readonly block: RestoredBlock;
  /** The first such error as its cell shows it ("#N/A") and that cell ("B7"). */
  readonly error: string;
  readonly errorAddress: string;
}

function inScope(entry: FrozenFormula, areas: readonly ScopeArea[]): boolean {
  const { row, column } = parseCellAddress(entry.address);
  return areas.some(
    (area) =>
      area.sheetName.toUpperCase() === entry.sheetName.toUpperCase() &&
      (!area.rect || rectContains(area.rect, row, column)),
  );
}

/** A kept formula as a formula of the workbook: its cell and the cells its frozen values cover. */
function resultOf(entry: FrozenFormula): FormulaResult & { entry: FrozenFormula } {
  const { row, column } = parseCellAddress(entry.address);
  return {
    entry,
    cell: { sheetName: entry.sheetName, row, column, address: entry.address, formula: entry.formula },
    rect: { row, column, rowCount: entry.rowCount, columnCount: entry.columnCount },
  };
}

const asOfCommentsOf = (entries: readonly FrozenFormula[]): AsOfComment[] =>
  entries.flatMap((entry) =>
    entry.asOf === undefined
      ? []
      : [{ sheetName: entry.sheetName, address: entry.address, text: entry.asOf }],
  );

/** The kept formulas a restore of the scope would put back. Reads only. */
export async function planRestore(context: Excel.RequestContext, scope: FormulaScope): Promise<RestorePlan> {
  const store = await readFrozenStore(context);
  if (store.entries.length === 0) return { entries: [], missingSheets: [] };
  const areas = await resolveScope(context, scope, [FROZEN_STORE_SHEET_NAME]);
  const entries = store.entries.filter((entry) => inScope(entry, areas));
  if (scope.kind !== "workbook") return { entries, missingSheets: [] };
  const existing = new Set(areas.map((area) => area.sheetName.toUpperCase()));
  const missing = store.entries.filter((entry) => !existing.has(entry.sheetName.toUpperCase()));
  return { entries, missingSheets: [...new Set(missing.map((entry) => entry.sheetName))] };
}

/**
 * Puts back the planned formulas that are still kept: reads what their cells show (the frozen values, kept in
 * the result), clears those cells (so an array can spill again) and enters each formula, which Excel then
 * calculates. What was restored leaves the store; the rest stays kept.
 */
export async function putBackFormulas(
  context: Excel.RequestContext,
  plan: RestorePlan,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const store = await readFrozenStore(context);
  const planned = new Set(plan.entries.map(entryKey));
  const restored = store.entries.filter((entry) => planned.has(entryKey(entry)));
  const kept = store.entries.filter((entry) => !planned.has(entryKey(entry)));
  const property = hostValuesProperty();
  const frozenValues = await withShownValues(context, restored.map(resultOf), property);

  const batch = new BudgetedBatch(context, options.requestBudgetBytes);
  for (const { cell, rect, entry } of frozenValues) {
    await batch.add(jsonByteLength(entry) + 64, () => {
      const sheet = context.workbook.worksheets.getItem(cell.sheetName);
      if (rect.rowCount > 1 || rect.columnCount > 1) {
        sheet.getRangeByIndexes(rect.row, rect.column, rect.rowCount, rect.columnCount).clear("Contents");
      }
      sheet.getRangeByIndexes(rect.row, rect.column, 1, 1).formulas = [[cell.formula]];
    });
  }
  await batch.flush();
  await removeAsOfComments(context, asOfCommentsOf(restored));
  if (restored.length > 0) await replaceFrozenFormulas(context, store, kept);
  return { restored, missingSheets: plan.missingSheets, frozenValues, property };
}

/** Puts frozen formulas back in the scope (see `putBackFormulas`), without a look at what they answer. */
export async function restoreRentFormulas(
  context: Excel.RequestContext,
  scope: FormulaScope,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  return putBackFormulas(context, await planRestore(context, scope), options);
}

/**
 * Excel's error values as `Range.values` reads them; `Range.valuesAsJson` reads an error as an object of type
 * "Error" (an entity's basic type is "Error" too, so the type is what tells).
 */
const EXCEL_ERRORS = new Set([
  "#N/A",
  "#VALUE!",
  "#REF!",
  "#DIV/0!",
  "#NUM!",
  "#NAME?",
  "#NULL!",
  "#SPILL!",
  "#CALC!",
  "#FIELD!",
  "#CONNECT!",
  "#BLOCKED!",
  "#UNKNOWN!",
  "#BUSY!",
  "#GETTING_DATA",
]);

function errorText(value: unknown): string | undefined {
  if (typeof value === "string") return EXCEL_ERRORS.has(value) ? value : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  const { type, basicValue } = value as { type?: unknown; basicValue?: unknown };
  return type === "Error" ? String(basicValue) : undefined;
}

/**
 * The restored formulas whose cells (read once they settled) show an error where their frozen values showed
 * none: the block is the unit, so one such cell of a spill counts for its whole formula. A formula still
 * calculating counts too: it has no answer yet.
 */
export async function unansweredRestores(
  context: Excel.RequestContext,
  result: RestoreResult,
): Promise<UnansweredRestore[]> {
  const now = await withShownValues(
    context,
    result.frozenValues.map((block) => ({ cell: block.cell, rect: block.rect, block })),
    result.property,
  );
  const unanswered: UnansweredRestore[] = [];
  for (const { block, shown } of now) {
    const found = shown
      .flatMap((row, r) => row.map((value, c) => ({ r, c, error: errorText(value) })))
      .find(({ r, c, error }) => error !== undefined && errorText(block.shown[r]?.[c]) === undefined);
    if (!found?.error) continue;
    const errorAddress = cellAddress(block.rect.row + found.r, block.rect.column + found.c);
    unanswered.push({ block, error: found.error, errorAddress });
  }
  return unanswered;
}

/**
 * Puts the frozen values of restored formulas back (their formulas could not answer) and keeps the formulas,
 * with their as-of comments, for a later restore: nothing the person froze is lost.
 */
export async function keepFrozen(
  context: Excel.RequestContext,
  blocks: readonly RestoredBlock[],
  property: ValuesProperty,
  options: RestoreOptions = {},
): Promise<void> {
  if (blocks.length === 0) return;
  await writeShownValues(context, blocks, property, options.requestBudgetBytes);
  const entries = blocks.map((block) => block.entry);
  await appendFrozenFormulas(context, await readFrozenStore(context), entries);
  await writeAsOfComments(context, await uncommentedOnly(context, asOfCommentsOf(entries)));
}
