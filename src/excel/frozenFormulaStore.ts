import { readBounded } from "./boundedReads";
import { jsonByteLength } from "../tables/payloadBytes";
import { rowChunks } from "./rowChunks";

/**
 * Where frozen formulas wait to be restored: a very hidden worksheet, saved with the workbook and travelling
 * with it, invisible in Excel's unhide list, and holding nothing but formulas the workbook already showed
 * (never a secret). Each row is one JSON object, so no sheet name or formula text is ever taken for a formula
 * by Excel ("=..." or "-..." in a value would be).
 */
export const FROZEN_STORE_SHEET_NAME = "RENT frozen formulas";

const HEADER =
  "Frozen RENT formulas, kept by the Rent Market add-in to restore them (one JSON object per row)";

export interface FrozenFormula {
  readonly sheetName: string;
  /** The formula's cell ("B3"), the anchor of its spill when it spilled. */
  readonly address: string;
  readonly formula: string;
  /** Size of what the formula showed (its spill), which restoring clears so the array can spill again. */
  readonly rowCount: number;
  readonly columnCount: number;
  /** The as-of comment written beside the values at the freeze, which restoring removes. */
  readonly asOf?: string;
}

export interface FrozenStore {
  readonly exists: boolean;
  /** One per cell: when a cell was frozen twice, the latest freeze wins. */
  readonly entries: readonly FrozenFormula[];
  /** Data rows the sheet holds (what a rewrite must clear beyond its new end). */
  readonly storedRows: number;
}

/** A kept formula's cell, as one spelling (sheet names and addresses compare without case). */
export const entryKey = (entry: Pick<FrozenFormula, "sheetName" | "address">) =>
  `${entry.sheetName.toUpperCase()}!${entry.address.toUpperCase()}`;

function parseEntry(text: unknown): FrozenFormula | undefined {
  if (typeof text !== "string" || text === "") return undefined;
  try {
    const value = JSON.parse(text) as Partial<FrozenFormula>;
    const valid =
      typeof value.sheetName === "string" &&
      typeof value.address === "string" &&
      typeof value.formula === "string" &&
      Number.isInteger(value.rowCount) &&
      Number.isInteger(value.columnCount);
    return valid ? (value as FrozenFormula) : undefined;
  } catch {
    // A row someone edited by hand in the hidden sheet: it cannot be restored, and the rest still can.
    return undefined;
  }
}

export async function readFrozenStore(context: Excel.RequestContext): Promise<FrozenStore> {
  const sheet = context.workbook.worksheets.getItemOrNullObject(FROZEN_STORE_SHEET_NAME);
  sheet.load("name");
  await context.sync();
  if (sheet.isNullObject) return { exists: false, entries: [], storedRows: 0 };
  const used = sheet.getUsedRangeOrNullObject(true);
  used.load("rowIndex,rowCount");
  await context.sync();
  const storedRows = used.isNullObject ? 0 : Math.max(0, used.rowIndex + used.rowCount - 1);
  const latest = new Map<string, FrozenFormula>();
  // An entry with its as-of runs to a kilobyte or more: the rows come in requests sized by what they hold.
  const rect = { row: 1, column: 0, rowCount: storedRows, columnCount: 1 };
  const [stored] =
    storedRows > 0 ? await readBounded(context, [{ sheetName: sheet.name, rect }], ["values"]) : [];
  for (const [text] of stored?.values ?? []) {
    const entry = parseEntry(text);
    if (!entry) continue;
    latest.delete(entryKey(entry));
    latest.set(entryKey(entry), entry);
  }
  return { exists: true, entries: [...latest.values()], storedRows };
}

async function writeRows(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  firstRow: number,
  entries: readonly FrozenFormula[],
): Promise<void> {
  const rows = entries.map((entry) => [JSON.stringify(entry)]);
  const rowBytes = (index: number) => jsonByteLength(rows[index]) + 1;
  for (const chunk of rowChunks(rows.length, rowBytes)) {
    sheet.getRangeByIndexes(firstRow + chunk.start, 0, chunk.end - chunk.start, 1).values = rows.slice(
      chunk.start,
      chunk.end,
    );
    await context.sync();
  }
}

/**
 * Adds entries after the stored ones. Appending (not rewriting) means a failure half-way never loses a formula
 * that was already kept.
 */
export async function appendFrozenFormulas(
  context: Excel.RequestContext,
  store: FrozenStore,
  entries: readonly FrozenFormula[],
): Promise<void> {
  if (entries.length === 0) return;
  let sheet: Excel.Worksheet;
  if (store.exists) sheet = context.workbook.worksheets.getItem(FROZEN_STORE_SHEET_NAME);
  else {
    sheet = context.workbook.worksheets.add(FROZEN_STORE_SHEET_NAME);
    sheet.visibility = "VeryHidden";
    sheet.getRangeByIndexes(0, 0, 1, 1).values = [[HEADER]];
  }
  await writeRows(context, sheet, 1 + store.storedRows, entries);
}

/**
 * Replaces the stored entries with `entries` (what is left after a restore), overwriting from the top and then
 * clearing the old tail; with nothing left the sheet goes, so a workbook with nothing frozen carries no trace.
 */
export async function replaceFrozenFormulas(
  context: Excel.RequestContext,
  store: FrozenStore,
  entries: readonly FrozenFormula[],
): Promise<void> {
  if (!store.exists) return appendFrozenFormulas(context, store, entries);
  const sheet = context.workbook.worksheets.getItem(FROZEN_STORE_SHEET_NAME);
  if (entries.length === 0) {
    sheet.delete();
    await context.sync();
    return;
  }
  await writeRows(context, sheet, 1, entries);
  if (store.storedRows > entries.length) {
    sheet.getRangeByIndexes(1 + entries.length, 0, store.storedRows - entries.length, 1).clear("Contents");
    await context.sync();
  }
}
