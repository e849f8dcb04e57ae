import type { CellRect } from "./a1";
import { uncommentedOnly, writeAsOfComments } from "./asOfComments";
import { BudgetedBatch } from "./budgetedBatch";
import type { FormulaScope } from "./formulaScope";
import { appendFrozenFormulas, readFrozenStore, type FrozenFormula } from "./frozenFormulaStore";
import { asLiteralText } from "../tables/literalText";
import { jsonByteLength } from "./requestPayload";
import { hostSupports } from "./requirementSets";
import { findRentFormulaCells, FORMULA_READ_BLOCK_CELLS, type RentFormulaCell } from "./rentFormulas";

export interface FreezeOptions {
  readonly requestBudgetBytes?: number;
  /** The as-of of a formula's values, written beside them as a comment; none written without it. */
  readonly asOfText?: (cell: { sheetName: string; address: string }) => string | Promise<string>;
}

export interface FreezeResult {
  /** The formulas replaced by their values, now kept for `restoreRentFormulas`. */
  readonly frozen: readonly FrozenFormula[];
  /** Formulas left in place because they were still calculating (#BUSY!): freezing would keep "#BUSY!". */
  readonly stillCalculating: readonly RentFormulaCell[];
}

const BUSY = "#BUSY!";

/**
 * Range.valuesAsJson (ExcelApi 1.16) reads a cell as Excel holds it: an entity card, a number with the format
 * it carries (a rent, a date). Range.values reads only the basic value: "#VALUE!" for an entity, a bare number
 * for a formatted one. Hosts without 1.16 have no data types in cells, so values lose nothing there.
 */
const VALUES_AS_JSON = ["ExcelApi", "1.16"] as const;
export type ValuesProperty = "values" | "valuesAsJson";

/** How this host reads and writes what cells show without losing anything (cards, formats) it can hold. */
export function hostValuesProperty(): ValuesProperty {
  return hostSupports(...VALUES_AS_JSON) ? "valuesAsJson" : "values";
}

function isBusy(value: unknown): boolean {
  if (value === BUSY) return true;
  return (
    typeof value === "object" && value !== null && (value as { basicValue?: unknown }).basicValue === BUSY
  );
}

/** Anchors whose spill size is asked per request: a few hundred bytes of request each. */
const SPILL_LOOKUPS_PER_REQUEST = 2_000;

function cellRange(context: Excel.RequestContext, sheetName: string, rect: CellRect): Excel.Range {
  return context.workbook.worksheets
    .getItem(sheetName)
    .getRangeByIndexes(rect.row, rect.column, rect.rowCount, rect.columnCount);
}

/** A RENT formula and the cells its result covers: its own cell, or its whole spill. */
export interface FormulaResult {
  readonly cell: RentFormulaCell;
  readonly rect: CellRect;
}

export interface ShownResult extends FormulaResult {
  readonly shown: unknown[][];
}

export async function resultsOf(
  context: Excel.RequestContext,
  cells: readonly RentFormulaCell[],
): Promise<FormulaResult[]> {
  const results: FormulaResult[] = [];
  for (let first = 0; first < cells.length; first += SPILL_LOOKUPS_PER_REQUEST) {
    const lookups = cells.slice(first, first + SPILL_LOOKUPS_PER_REQUEST).map((cell) => {
      const anchor = { row: cell.row, column: cell.column, rowCount: 1, columnCount: 1 };
      const spill = cellRange(context, cell.sheetName, anchor).getSpillingToRangeOrNullObject();
      spill.load("rowCount,columnCount");
      return { cell, anchor, spill };
    });
    await context.sync();
    for (const { cell, anchor, spill } of lookups) {
      const rect = spill.isNullObject
        ? anchor
        : { ...anchor, rowCount: spill.rowCount, columnCount: spill.columnCount };
      results.push({ cell, rect });
    }
  }
  return results;
}

/** The values each result shows now, read in requests of bounded size (responses share the 5 MB ceiling). */
export async function withShownValues<R extends FormulaResult>(
  context: Excel.RequestContext,
  results: readonly R[],
  property: ValuesProperty,
): Promise<(R & ShownResult)[]> {
  const shown: (R & ShownResult)[] = [];
  let pending: { result: R; range: Excel.Range }[] = [];
  let pendingCells = 0;
  const readPending = async () => {
    await context.sync();
    for (const { result, range } of pending) {
      // A shown text such as "=x" or "-" must come back as that text, not as a formula (valuesAsJson writes a
      // String as text already).
      const values =
        property === "valuesAsJson"
          ? (range.valuesAsJson as unknown[][])
          : range.values.map((row) =>
              row.map((v: unknown) => (typeof v === "string" ? asLiteralText(v) : v)),
            );
      shown.push({ ...result, shown: values });
    }
    pending = [];
    pendingCells = 0;
  };
  for (const result of results) {
    const range = cellRange(context, result.cell.sheetName, result.rect);
    range.load(property);
    pending.push({ result, range });
    pendingCells += result.rect.rowCount * result.rect.columnCount;
    if (pendingCells >= FORMULA_READ_BLOCK_CELLS) await readPending();
  }
  if (pending.length > 0) await readPending();
  return shown;
}

/** Writes what each result showed over its cells (a formula there is replaced), in requests under the budget. */
export async function writeShownValues(
  context: Excel.RequestContext,
  results: readonly ShownResult[],
  property: ValuesProperty,
  requestBudgetBytes?: number,
): Promise<void> {
  const batch = new BudgetedBatch(context, requestBudgetBytes);
  for (const { cell, rect, shown } of results) {
    await batch.add(jsonByteLength(shown) + 64, () => {
      const range = cellRange(context, cell.sheetName, rect);
      if (property === "valuesAsJson") range.valuesAsJson = shown as Excel.CellValue[][];
      else range.values = shown;
    });
  }
  await batch.flush();
}

/**
 * Replaces the RENT formulas in the scope with the values they show (spills included), so the workbook reads
 * the same for someone without the add-in: entity cards stay cards, rents and dates keep the formats they carry. The formulas are kept in the workbook first, then overwritten:
 * `restoreRentFormulas` puts them back.
 */
export async function freezeRentFormulas(
  context: Excel.RequestContext,
  scope: FormulaScope,
  options: FreezeOptions = {},
): Promise<FreezeResult> {
  const cells = await findRentFormulaCells(context, scope);
  if (cells.length === 0) return { frozen: [], stillCalculating: [] };
  const property = hostValuesProperty();
  const shown = await withShownValues(context, await resultsOf(context, cells), property);
  const calculating = (result: ShownResult) => result.shown.some((row) => row.some(isBusy));
  const results = shown.filter((result) => !calculating(result));
  const stillCalculating = shown.filter(calculating).map((result) => result.cell);
  const asOfText = options.asOfText;
  const commented = asOfText
    ? await uncommentedOnly(
        context,
        await Promise.all(
          results.map(async ({ cell }) => ({
            sheetName: cell.sheetName,
            address: cell.address,
            text: await asOfText(cell),
          })),
        ),
      )
    : [];
  const asOfOf = new Map(commented.map((note) => [`${note.sheetName}!${note.address}`, note.text]));
  const frozen = results.map(({ cell, rect }) => ({
    sheetName: cell.sheetName,
    address: cell.address,
    formula: cell.formula,
    rowCount: rect.rowCount,
    columnCount: rect.columnCount,
    asOf: asOfOf.get(`${cell.sheetName}!${cell.address}`),
  }));

  await appendFrozenFormulas(context, await readFrozenStore(context), frozen);

  await writeShownValues(context, results, property, options.requestBudgetBytes);
  await writeAsOfComments(context, commented);
  return { frozen, stillCalculating };
}
