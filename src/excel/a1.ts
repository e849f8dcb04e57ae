/** A1-style addresses: Excel's API speaks them, our code thinks in zero-based row and column indexes. */

export interface CellRect {
  /** Zero-based. */
  readonly row: number;
  /** Zero-based. */
  readonly column: number;
  readonly rowCount: number;
  readonly columnCount: number;
}

/** 0 -> "A", 25 -> "Z", 26 -> "AA". */
export function columnLetters(columnIndex: number): string {
  let letters = "";
  for (let n = columnIndex + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

export function cellAddress(row: number, column: number): string {
  return `${columnLetters(column)}${row + 1}`;
}

export function rectAddress(rect: CellRect): string {
  const first = cellAddress(rect.row, rect.column);
  if (rect.rowCount === 1 && rect.columnCount === 1) return first;
  return `${first}:${cellAddress(rect.row + rect.rowCount - 1, rect.column + rect.columnCount - 1)}`;
}

const CELL = /^\$?([A-Z]{1,3})\$?(\d{1,7})$/i;

/** "B3" -> { row: 2, column: 1 }; throws on anything that is not a single cell reference. */
export function parseCellAddress(address: string): { row: number; column: number } {
  const match = CELL.exec(address.trim());
  if (!match?.[1] || !match[2]) throw new Error(`Not a cell address: ${address}`);
  let column = 0;
  for (const letter of match[1].toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return { row: Number(match[2]) - 1, column: column - 1 };
}

/**
 * "Sheet1!B2", "École!B2", "'Q1'!B2", "'O''Brien'!B2" as the sheet's name and the cells. Excel decides by rules
 * of its own which names it quotes (docs/hosts.md, "Addresses"); reading both forms, the add-in never relies on
 * them, and it compares what it parsed, never the text.
 */
export function splitSheetAddress(address: string): { sheetName: string; cells: string } | undefined {
  const bang = address.lastIndexOf("!");
  if (bang <= 0) return undefined;
  const sheet = address.slice(0, bang);
  const quoted = sheet.length >= 2 && sheet.startsWith("'") && sheet.endsWith("'");
  return {
    sheetName: quoted ? sheet.slice(1, -1).replace(/''/g, "'") : sheet,
    cells: address.slice(bang + 1),
  };
}

/** The sheet, row and column of a one-cell address as Excel gives it (`Range.address`); undefined otherwise. */
export function parseSheetCell(
  address: string,
): { sheetName: string; row: number; column: number } | undefined {
  const parts = splitSheetAddress(address);
  if (!parts || !CELL.test(parts.cells.trim())) return undefined;
  return { sheetName: parts.sheetName, ...parseCellAddress(parts.cells) };
}

export function rectContains(outer: CellRect, row: number, column: number): boolean {
  return (
    row >= outer.row &&
    row < outer.row + outer.rowCount &&
    column >= outer.column &&
    column < outer.column + outer.columnCount
  );
}
