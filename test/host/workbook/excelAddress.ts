/**
 * Sheet names in addresses as Excel writes and reads them, written from Excel's observed behaviour and never
 * from the add-in's code (docs/hosts.md, "Addresses"): the stand-in must be able to disagree with the add-in.
 *
 * Excel leaves a name bare when it reads unambiguously as a name, and quotes it ('…', an apostrophe doubled)
 * when it holds anything but letters, digits, `_` and `.` (letters of any script: `École`, `Лист1` stay bare),
 * starts with a digit or `.`, reads as an A1 cell within the grid (`Q1`, `FY24`), or starts with an R1C1
 * reference (`R2D2`, `C3PO`, `RC`, `R`, `C`).
 */
const LAST_ROW = 1_048_576;
const LAST_COLUMN = 16_384;

/** Letters and digits of any script, `_`, `.`, and pictographs (Excel takes emoji as letters). */
const WORD_CHARACTERS = /^[\p{L}\p{M}\p{N}\p{Extended_Pictographic}_.]*$/u;
const STARTS_OUTSIDE_A_NAME = /^[\p{Nd}.\p{Extended_Pictographic}]/u;
const A1_CELL = /^([A-Z]{1,3})([0-9]+)$/;
const R1C1_ROW_START = /^R([0-9]+)/;
const R1C1_COLUMN_START = /^R?C([0-9]+)/;

function columnNumber(letters: string): number {
  return [...letters].reduce((n, letter) => n * 26 + letter.charCodeAt(0) - 64, 0);
}

const within = (n: number, last: number) => n >= 1 && n <= last;

function readsAsCell(upper: string): boolean {
  const a1 = A1_CELL.exec(upper);
  if (a1) return within(columnNumber(a1[1]!), LAST_COLUMN) && within(Number(a1[2]), LAST_ROW);
  const row = R1C1_ROW_START.exec(upper);
  if (row && within(Number(row[1]), LAST_ROW)) return true;
  const column = R1C1_COLUMN_START.exec(upper);
  if (column && within(Number(column[1]), LAST_COLUMN)) return true;
  return upper === "R" || upper === "C" || upper === "RC";
}

/** Whether Excel writes this sheet name between quotes in an address. */
export function excelQuotesSheetName(name: string): boolean {
  return !WORD_CHARACTERS.test(name) || STARTS_OUTSIDE_A_NAME.test(name) || readsAsCell(name.toUpperCase());
}

/** "Sheet1!B2", "École!B2", "'Q1'!B2", "'O''Brien'!B2": a sheet and a cell or range as Excel writes them. */
export function excelAddress(sheetName: string, cells: string): string {
  const sheet = excelQuotesSheetName(sheetName) ? `'${sheetName.replace(/'/g, "''")}'` : sheetName;
  return `${sheet}!${cells}`;
}

/**
 * The sheet and the cells of an address the add-in hands to Excel. A quoted name may be any name; a bare one
 * must be one Excel writes bare, since Excel cannot read `Q1!A1` or `My Sheet!A1` as the sheet's.
 */
export function readExcelAddress(address: string): { sheetName: string; cells: string } | undefined {
  const quoted = /^'((?:[^']|'')+)'!([^!']+)$/.exec(address);
  if (quoted) return { sheetName: quoted[1]!.replace(/''/g, "'"), cells: quoted[2]! };
  const bare = /^([^!']+)!([^!']+)$/.exec(address);
  if (!bare || excelQuotesSheetName(bare[1]!)) return undefined;
  return { sheetName: bare[1]!, cells: bare[2]! };
}
