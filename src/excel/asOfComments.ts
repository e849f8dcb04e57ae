import { parseCellAddress, parseSheetCell } from "./a1";

/** A frozen formula's cell and the as-of written beside its values. */
export interface AsOfComment {
  readonly sheetName: string;
  readonly address: string;
  readonly text: string;
}

/**
 * One cell, whatever the spelling of its address: sheet names compare as Excel compares them (without regard
 * to case) and the cell by row and column. Excel writes a comment's location with its own quoting of the sheet
 * name (`École!A1` bare, `'Q1'!A1` quoted), which no rule of ours may second-guess.
 */
function cellKey(sheetName: string, row: number, column: number): string {
  return `${sheetName.toUpperCase()}\n${row}\n${column}`;
}

const noteKey = (note: AsOfComment) => {
  const { row, column } = parseCellAddress(note.address);
  return cellKey(note.sheetName, row, column);
};

/** The comments of the workbook by the cell they are on (two requests, whatever their number). */
async function commentsByCell(context: Excel.RequestContext): Promise<Map<string, Excel.Comment>> {
  const comments = context.workbook.comments;
  comments.load("items/content");
  await context.sync();
  const located = comments.items.map((comment) => {
    const cell = comment.getLocation();
    cell.load("address");
    return { comment, cell };
  });
  await context.sync();
  const byCell = new Map<string, Excel.Comment>();
  for (const { comment, cell } of located) {
    const where = parseSheetCell(cell.address);
    if (where) byCell.set(cellKey(where.sheetName, where.row, where.column), comment);
  }
  return byCell;
}

/**
 * The as-of comments that can be written: a cell that already has a comment keeps it and gets none. Reads
 * only, so the caller can keep what it will write before writing anything.
 */
export async function uncommentedOnly(
  context: Excel.RequestContext,
  asOf: readonly AsOfComment[],
): Promise<AsOfComment[]> {
  if (asOf.length === 0) return [];
  const existing = await commentsByCell(context);
  return asOf.filter((note) => !existing.has(noteKey(note)));
}

/**
 * Writes each as-of as a comment on the formula's cell (Excel comments, ExcelApi 1.10): it stays beside the
 * values, travels with the workbook and reads the same without the add-in. The cell goes as a Range, so no
 * address of ours has to be spelled the way Excel reads one.
 */
export async function writeAsOfComments(
  context: Excel.RequestContext,
  asOf: readonly AsOfComment[],
): Promise<void> {
  for (const note of asOf) {
    const { row, column } = parseCellAddress(note.address);
    const cell = context.workbook.worksheets.getItem(note.sheetName).getRangeByIndexes(row, column, 1, 1);
    context.workbook.comments.add(cell, note.text);
  }
  await context.sync();
}

/** Removes the as-of comments of restored formulas; a comment someone has since edited stays. */
export async function removeAsOfComments(
  context: Excel.RequestContext,
  asOf: readonly AsOfComment[],
): Promise<void> {
  if (asOf.length === 0) return;
  const existing = await commentsByCell(context);
  for (const note of asOf) {
    const comment = existing.get(noteKey(note));
    if (comment && comment.content === note.text) comment.delete();
  }
  await context.sync();
}
