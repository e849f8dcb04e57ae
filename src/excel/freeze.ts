import type { CellRect } from "./a1";
import { uncommentedOnly, writeAsOfComments } from "./asOfComments";
import { BudgetedBatch } from "./budgetedBatch";
import type { FormulaScope } from "./formulaScope";
import { appendFrozenFormulas, readFrozenStore, type FrozenFormula } from "./frozenFormulaStore";
import { asLiteralText } from "../tables/literalText";
import { plainCell } from "./plainCells";
import { jsonByteLength } from "../tables/payloadBytes";
import { hostSupports } from "./requirementSets";
import { findRentFormulaCells, type RentFormulaCell } from "./rentFormulas";
import { PLAIN_CELL_BYTES, readBounded } from "./boundedReads";
import { rowChunks } from "./rowChunks";
import { spillsOf } from "./spillLookups";

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
  const spills = await spillsOf(context, cells);
  return cells.map((cell, index) => ({
    cell,
    rect: spills[index] ?? { row: cell.row, column: cell.column, rowCount: 1, columnCount: 1 },
  }));
}

/**
 * What a cell is assumed to read as through valuesAsJson before any is read: an entity card of a property is
 * about ten thousand bytes, so the first request assumes cards and the next ones size by what came back.
 */
const CARD_BYTES = 10_000;

/** The values each result shows now, read in requests whose responses stay under Excel's 5 MB. */
export async function withShownValues<R extends FormulaResult>(
  context: Excel.RequestContext,
  results: readonly R[],
  property: ValuesProperty,
): Promise<(R & ShownResult)[]> {
  const grids = await readBounded(
    context,
    results.map(({ cell, rect }) => ({ sheetName: cell.sheetName, rect })),
    [property],
    { firstBytesPerCell: property === "valuesAsJson" ? CARD_BYTES : PLAIN_CELL_BYTES },
  );
  return results.map((result, index) => {
    const read = (grids[index] as Record<ValuesProperty, unknown[][]>)[property];
    // A shown text such as "=x" or "-" must come back as that text, not as a formula (valuesAsJson writes a
    // String as text already).
    const shown =
      property === "valuesAsJson"
        ? read
        : read.map((row) => row.map((v: unknown) => (typeof v === "string" ? asLiteralText(v) : v)));
    return { ...result, shown };
  });
}

/**
 * Writes what each result showed over its cells (a formula there is replaced), in requests under the budget;
 * `forSharing` writes cards and formatted values as plain values with their number formats on the cells.
 */
export async function writeShownValues(
  context: Excel.RequestContext,
  results: readonly ShownResult[],
  property: ValuesProperty,
  requestBudgetBytes?: number,
  forSharing = false,
): Promise<void> {
  const batch = new BudgetedBatch(context, requestBudgetBytes);
  for (const { cell, rect, shown } of results) {
    // A block of cards can pass 5 MB by itself (600 cards of ~9.6 KB): its rows are written in parts that fit.
    const rowBytes = (index: number) => jsonByteLength(shown[index]) + 1;
    for (const { start, end, bytes } of rowChunks(shown.length, rowBytes, requestBudgetBytes)) {
      await batch.add(bytes + 64, () => {
        const range = cellRange(context, cell.sheetName, {
          ...rect,
          row: rect.row + start,
          rowCount: end - start,
        });
        const rows = shown.slice(start, end);
        if (property === "values") range.values = rows;
        else if (!forSharing) range.valuesAsJson = rows as Excel.CellValue[][];
        else {
          const plain = rows.map((row) => row.map(plainCell));
          range.values = plain.map((row) => row.map((c) => c.value));
          range.numberFormat = plain.map((row) => row.map((c) => c.format));
        }
      });
    }
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

  await writeShownValues(context, results, property, options.requestBudgetBytes, options.forSharing);
  await writeAsOfComments(context, commented);
  return { frozen, stillCalculating };
}
