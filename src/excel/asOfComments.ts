import { qualifiedAddress } from "./a1";

/** A frozen formula's cell and the as-of written beside its values. */
export interface AsOfComment {
  readonly sheetName: string;
  readonly address: string;
  readonly text: string;
}

const cellKey = (sheetName: string, address: string) => qualifiedAddress(sheetName, address).toUpperCase();

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
  return new Map(
    located.map(({ comment, cell }) => [cell.address.replace(/\$/g, "").toUpperCase(), comment]),
  );
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
  return asOf.filter((note) => !existing.has(cellKey(note.sheetName, note.address)));
}

/**
 * Writes each as-of as a comment on the formula's cell (Excel comments, ExcelApi 1.10): it stays beside the
 * values, travels with the workbook and reads the same without the add-in.
 */
export async function writeAsOfComments(
  context: Excel.RequestContext,
  asOf: readonly AsOfComment[],
): Promise<void> {
  for (const note of asOf)
    context.workbook.comments.add(qualifiedAddress(note.sheetName, note.address), note.text);
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
    const comment = existing.get(cellKey(note.sheetName, note.address));
    if (comment && comment.content === note.text) comment.delete();
  }
  await context.sync();
}
