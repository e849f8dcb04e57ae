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

/** Excel quotes sheet names in formulas and addresses when they hold anything but letters and digits. */
export function qualifiedAddress(sheetName: string, address: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheetName);
  const sheet = plain ? sheetName : `'${sheetName.replace(/'/g, "''")}'`;
  return `${sheet}!${address}`;
}

export function rectContains(outer: CellRect, row: number, column: number): boolean {
  return (
    row >= outer.row &&
    row < outer.row + outer.rowCount &&
    column >= outer.column &&
    column < outer.column + outer.columnCount
  );
}
