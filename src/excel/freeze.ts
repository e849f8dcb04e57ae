import { parseCellAddress, rectContains, type CellRect } from "./a1";
import { removeAsOfComments, uncommentedOnly, writeAsOfComments } from "./asOfComments";
import { BudgetedBatch } from "./budgetedBatch";
import { resolveScope, type FormulaScope, type ScopeArea } from "./formulaScope";
import {
  appendFrozenFormulas,
  FROZEN_STORE_SHEET_NAME,
  readFrozenStore,
  replaceFrozenFormulas,
  type FrozenFormula,
} from "./frozenFormulaStore";
import { asLiteralText } from "../tables/literalText";
import { plainCell } from "./plainCells";
import { jsonByteLength } from "./requestPayload";
import { hostSupports } from "./requirementSets";
import { findRentFormulaCells, FORMULA_READ_BLOCK_CELLS, type RentFormulaCell } from "./rentFormulas";

export interface FreezeOptions {
  readonly requestBudgetBytes?: number;
  /** The as-of of a formula's values, written beside them as a comment; none written without it. */
  readonly asOfText?: (cell: { sheetName: string; address: string }) => string | Promise<string>;
  /**
   * Freeze for sharing: plain values with the number formats they show, no data types, so that Excel 2021 and
   * older (no data types in cells) show what this Excel shows (src/excel/plainCells.ts).
   */
  readonly forSharing?: boolean;
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
type ValuesProperty = "values" | "valuesAsJson";

function isBusy(value: unknown): boolean {
  if (value === BUSY) return true;
  return (
    typeof value === "object" && value !== null && (value as { basicValue?: unknown }).basicValue === BUSY
  );
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

/** A RENT formula and the cells its result covers: its own cell, or its whole spill. */
interface FormulaResult {
  readonly cell: RentFormulaCell;
  readonly rect: CellRect;
}

interface ShownResult extends FormulaResult {
  readonly shown: unknown[][];
}

async function resultsOf(
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
async function withShownValues(
  context: Excel.RequestContext,
  results: readonly FormulaResult[],
  property: ValuesProperty,
): Promise<ShownResult[]> {
  const shown: ShownResult[] = [];
  let pending: { result: FormulaResult; range: Excel.Range }[] = [];
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
  const property: ValuesProperty = hostSupports(...VALUES_AS_JSON) ? "valuesAsJson" : "values";
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

  const batch = new BudgetedBatch(context, options.requestBudgetBytes);
  for (const { cell, rect, shown } of results) {
    await batch.add(jsonByteLength(shown) + 64, () => {
      const range = cellRange(context, cell.sheetName, rect);
      if (property === "values") range.values = shown;
      else if (!options.forSharing) range.valuesAsJson = shown as Excel.CellValue[][];
      else {
        const plain = shown.map((row) => row.map(plainCell));
        range.values = plain.map((row) => row.map((c) => c.value));
        range.numberFormat = plain.map((row) => row.map((c) => c.format));
      }
    });
  }
  await batch.flush();
  await writeAsOfComments(context, commented);
  return { frozen, stillCalculating };
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
  await removeAsOfComments(
    context,
    restored.flatMap((entry) =>
      entry.asOf === undefined
        ? []
        : [{ sheetName: entry.sheetName, address: entry.address, text: entry.asOf }],
    ),
  );
  if (restored.length > 0) await replaceFrozenFormulas(context, store, kept);
  return { restored, missingSheets };
}
