import { parquetWriteBuffer } from "hyparquet-writer";
import { parseCsv } from "../../src/formats/csv";
import { exportFormatOf, parseExportFile } from "../../src/formats/exportFile";
import { parseJsonl } from "../../src/formats/jsonl";
import { FormatError, type ExportFormat } from "../../src/formats/parsedTable";
import {
  UNIT_EXPORT_COLUMNS,
  unitExportCsv,
  unitExportJsonl,
  unitExportParquet,
  unitExportRows,
} from "./support/unitExportFiles";

const ROWS = unitExportRows(1_000);
const encode = (text: string) => new TextEncoder().encode(text);
const files: Record<ExportFormat, () => Uint8Array | ArrayBuffer> = {
  csv: () => encode(unitExportCsv(ROWS)),
  jsonl: () => encode(unitExportJsonl(ROWS)),
  parquet: () => unitExportParquet(ROWS),
};

describe.each(["csv", "jsonl", "parquet"] as const)("parseExportFile(%s)", (format) => {
  it("returns every row and the documented columns in order", async () => {
    const table = await parseExportFile(files[format](), format);

    expect(table.columns).toEqual(UNIT_EXPORT_COLUMNS.map((c) => c.name));
    expect(table.rows).toHaveLength(ROWS.length);
  });

  it("keeps the values and their types: numbers stay numbers, null stays null, text stays text", async () => {
    const table = await parseExportFile(files[format](), format);

    const expected = ROWS.map((row) => table.columns.map((column) => row[column] ?? null));
    expect(table.rows).toEqual(expected);
    const unitName = table.columns.indexOf("unit_name");
    expect(table.rows[0]?.[unitName]).toBe("0000");
    expect(typeof table.rows[1]?.[table.columns.indexOf("asking_rent")]).toBe("number");
    expect(table.rows[0]?.[table.columns.indexOf("date_available")]).toBeNull();
  });
});

describe("malformed files", () => {
  it("csv: a row with the wrong number of fields names its line", async () => {
    await expect(parseCsv("a,b,c\n1,2,3\n4,5\n")).rejects.toThrow(
      new FormatError("csv", "expected 3 fields as in the header, found 2.", 3),
    );
    await expect(parseCsv("a,b\n1,2\n")).resolves.toEqual({ columns: ["a", "b"], rows: [[1, 2]] });
  });

  it("csv: an unclosed quote, an empty file, a repeated column", async () => {
    await expect(parseCsv('a,b\n1,"2\n3,4\n')).rejects.toThrow(FormatError);
    await expect(parseCsv("")).rejects.toThrow(/csv file cannot be read: it has no header row/);
    await expect(parseCsv("a,a\n1,2\n")).rejects.toThrow(/repeats a column name/);
  });

  it("jsonl: a broken line or a line that is not an object names its line", () => {
    expect(() => parseJsonl('{"a":1}\n{"a":\n')).toThrow(
      /jsonl file cannot be read \(line 2\): not valid JSON/,
    );
    expect(() => parseJsonl('{"a":1}\n\n[1,2]\n')).toThrow(/\(line 3\): each line must be one JSON object/);
  });

  it("parquet: bytes that are not parquet, or a truncated file", async () => {
    await expect(parseExportFile(encode("a,b\n1,2\n"), "parquet")).rejects.toThrow(
      /parquet file cannot be read/,
    );
    const truncated = new Uint8Array(unitExportParquet(ROWS.slice(0, 10))).slice(0, 200);
    await expect(parseExportFile(truncated, "parquet")).rejects.toBeInstanceOf(FormatError);
  });

  it("parquet: an int64 within a number's exact range reads as that number, one beyond it as its digits", async () => {
    const file = parquetWriteBuffer({
      columnData: [
        {
          name: "id",
          type: "INT64",
          data: [
            BigInt(Number.MAX_SAFE_INTEGER),
            BigInt(Number.MIN_SAFE_INTEGER),
            BigInt(Number.MAX_SAFE_INTEGER) + 1n,
            BigInt(Number.MIN_SAFE_INTEGER) - 1n,
          ],
        },
      ],
    });
    const table = await parseExportFile(file, "parquet");
    expect(table.rows).toEqual([
      [Number.MAX_SAFE_INTEGER],
      [Number.MIN_SAFE_INTEGER],
      ["9007199254740992"],
      ["-9007199254740992"],
    ]);
  });

  it("text formats refuse bytes that are not UTF-8", async () => {
    await expect(parseExportFile(new Uint8Array([0x61, 0x0a, 0xff, 0xfe]), "csv")).rejects.toThrow(
      /not UTF-8/,
    );
  });
});

describe("details of the text formats", () => {
  it("csv: a column is numeric only when every value is a plain number; a byte order mark is dropped", async () => {
    const table = await parseExportFile(encode("\uFEFFunit,rent,flag\n0101,1850,true\n102,,false\n"), "csv");
    expect(table.columns).toEqual(["unit", "rent", "flag"]);
    expect(table.rows).toEqual([
      ["0101", 1850, true],
      ["102", null, false],
    ]);
  });

  it("csv: CRLF rows ending in a bare LF keep an empty last value empty", async () => {
    expect((await parseCsv("a,b\r\n1,x\r\n2,\n")).rows).toEqual([
      [1, "x"],
      [2, null],
    ]);
  });

  it("jsonl: keys missing from a line are null; nested values are kept for shaping", () => {
    const table = parseJsonl('{"a":1,"n":{"x":[1]}}\r\n{"b":"two"}\n');
    expect(table.columns).toEqual(["a", "n", "b"]);
    expect(table.rows).toEqual([
      [1, { x: [1] }, null],
      [null, null, "two"],
    ]);
  });

  it("recognises the format from a file name or content type", () => {
    expect(exportFormatOf("units_2026.csv")).toBe("csv");
    expect(exportFormatOf("application/x-ndjson")).toBe("jsonl");
    expect(exportFormatOf("job.PARQUET")).toBe("parquet");
    expect(exportFormatOf("notes.txt")).toBeUndefined();
  });
});
