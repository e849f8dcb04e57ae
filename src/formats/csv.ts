import { FormatError, type ParsedTable } from "./parsedTable";

/**
 * A number only when the text is the number's own spelling: "1850.5" and "-3e2" are numbers, "021621" (a unit
 * name) and "1,850" are not. papaparse's dynamicTyping would turn "021621" into 21621.
 */
const CANONICAL_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

type ColumnType = "number" | "boolean" | "text";

function columnType(rows: readonly string[][], index: number): ColumnType {
  let numbers = true;
  let booleans = true;
  let any = false;
  for (const row of rows) {
    const text = row[index] ?? "";
    if (text === "") continue;
    any = true;
    if (numbers && !CANONICAL_NUMBER.test(text)) numbers = false;
    if (booleans && text !== "true" && text !== "false") booleans = false;
    if (!numbers && !booleans) return "text";
  }
  if (!any) return "text";
  return numbers ? "number" : "boolean";
}

function typed(text: string, type: ColumnType): unknown {
  if (text === "") return null;
  if (type === "number") return Number(text);
  if (type === "boolean") return text === "true";
  return text;
}

type Papaparse = typeof import("papaparse");

/**
 * papaparse is loaded when a csv file arrives, like hyparquet for parquet: the shared-runtime page starts
 * without parsers. It is a CommonJS module, which bundlers and Node hand back either as the namespace itself
 * or under `default`.
 */
async function loadPapaparse(): Promise<Papaparse> {
  const loaded = (await import(/* webpackChunkName: "papaparse" */ "papaparse")) as Papaparse & {
    default?: Papaparse;
  };
  return loaded.default ?? loaded;
}

/**
 * CSV with a header row. A column is numeric (or boolean) only when all its non-empty cells are, so a column
 * never mixes types; empty cells are null.
 */
export async function parseCsv(text: string): Promise<ParsedTable> {
  const Papa = await loadPapaparse();
  // papaparse takes the first line break it sees as the row separator; a file of CRLF rows that ends in a bare
  // LF (papaparse's own unparse output plus a final newline) would otherwise end its last value with "\n".
  const result = Papa.parse<string[]>(text.replace(/[\r\n]+$/, ""), { delimiter: ",", skipEmptyLines: true });
  const firstError = result.errors[0];
  if (firstError) {
    const line = firstError.row === undefined ? undefined : firstError.row + 1;
    throw new FormatError("csv", firstError.message, line);
  }
  const [header, ...records] = result.data;
  if (!header || header.length === 0 || header.every((name) => name.trim() === "")) {
    throw new FormatError("csv", "it has no header row.");
  }
  if (new Set(header).size !== header.length)
    throw new FormatError("csv", "the header repeats a column name.", 1);
  records.forEach((record, index) => {
    if (record.length !== header.length) {
      throw new FormatError(
        "csv",
        `expected ${header.length} fields as in the header, found ${record.length}.`,
        index + 2,
      );
    }
  });
  const types = header.map((_, index) => columnType(records, index));
  // Typed in place: the records are this parse's own, and a file may hold a million of them.
  const rows = records as unknown[][];
  for (const row of rows)
    for (let index = 0; index < row.length; index++)
      row[index] = typed(row[index] as string, types[index] ?? "text");
  return { columns: header, rows };
}
