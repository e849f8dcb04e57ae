import { NUMBER_FORMAT_BY_KIND } from "../../src/tables/columnKinds";
import { EXCEL_REQUEST_LIMIT_BYTES } from "../../src/tables/payloadBytes";
import type { CellValue, TableData } from "../../src/tables/tableData";
import { writeTable, type WriteProgress } from "../../src/excel/tableWriter";
import { MockExcel } from "./support/mockExcel";

function numberedTable(rowCount: number, textLength = 8): TableData {
  const filler = "x".repeat(textLength);
  return {
    columns: [
      { field: "id", header: "ID", kind: "identifier" },
      { field: "unit_name", header: "Unit Name", kind: "text" },
      { field: "min_rent", header: "Min Rent", kind: "currency" },
      { field: "date_available", header: "Date Available", kind: "date" },
      { field: "is_leased", header: "Is Leased", kind: "boolean" },
    ],
    rows: Array.from({ length: rowCount }, (_, i): CellValue[] => [
      i,
      `${filler}${i}`,
      1000 + i,
      46000 + (i % 365),
      i % 2 === 0,
    ]),
  };
}

describe("writeTable", () => {
  it("writes the header and every row of a 100,000-row table exactly once, in order", async () => {
    const excel = new MockExcel();
    excel.addSheet("Sheet1");
    const data = numberedTable(100_000);

    const result = await writeTable(excel.context, data, { sheetName: "Units" });

    const sheet = excel.sheet("Units");
    expect(result.rowsWritten).toBe(100_000);
    expect(sheet.values[0]).toEqual(["ID", "Unit Name", "Min Rent", "Date Available", "Is Leased"]);
    expect(sheet.values).toHaveLength(100_001);
    for (let i = 0; i < 100_000; i++) {
      if (sheet.rowValueWrites[i + 1] !== 1 || sheet.values[i + 1]?.[0] !== i) {
        throw new Error(
          `row ${i}: written ${sheet.rowValueWrites[i + 1]} times, holds ${sheet.values[i + 1]?.[0]}`,
        );
      }
    }
    expect(sheet.values[100_000]).toEqual(data.rows[99_999]);
    for (const request of excel.requests) expect(request.bytes).toBeLessThan(EXCEL_REQUEST_LIMIT_BYTES);
  });

  it("keeps every request under Excel's 5 MB limit by cutting chunks on the measured bytes", async () => {
    const excel = new MockExcel();
    excel.addSheet("Sheet1");
    // ~2 KB per row: 6,000 rows are ~12 MB of values, so one request could never carry them.
    const data = numberedTable(6_000, 2_000);

    const result = await writeTable(excel.context, data, { sheetName: "Big" });

    const dataRequests = excel.requests.filter((r) =>
      r.operations.some((op) => op.startsWith("range.values")),
    );
    expect(dataRequests.length).toBeGreaterThanOrEqual(3);
    for (const request of excel.requests) expect(request.bytes).toBeLessThan(EXCEL_REQUEST_LIMIT_BYTES);
    expect(result.largestChunkBytes).toBeLessThanOrEqual(4_000_000);
    expect(
      excel
        .sheet("Big")
        .rowValueWrites.slice(1)
        .every((count) => count === 1),
    ).toBe(true);
  });

  it.each([
    ["after the small rows", 300],
    ["between small rows", 150],
  ])(
    "sends a row too large to join the pending rows in a request of its own (%s), never crossing 5 MB",
    async (_where, bigRowAt) => {
      const excel = new MockExcel();
      excel.addSheet("Sheet1");
      // 300 rows of ~5 KB (~1.5 MB together) and one row of ~3.8 MB (120 cells of 32,000 characters, Excel's
      // most per cell): under the default 4 MB budget either fits alone, but not with what is pending.
      const columns = Array.from({ length: 120 }, (_, i) => ({
        field: `c${i}`,
        header: `C${i}`,
        kind: "text" as const,
      }));
      const small = (row: number): CellValue[] => columns.map((_, c) => `${row}-${c}-${"s".repeat(36)}`);
      const big = columns.map(() => "B".repeat(32_000));
      const rows = Array.from({ length: 301 }, (_, i) =>
        i === bigRowAt ? big : small(i < bigRowAt ? i : i - 1),
      );

      await writeTable(excel.context, { columns, rows }, { sheetName: "Wide" });

      for (const request of excel.requests) expect(request.bytes).toBeLessThan(EXCEL_REQUEST_LIMIT_BYTES);
      // The pending rows went before it: the chunk holding the big row starts with it.
      const chunks = excel.requests
        .flatMap((r) => r.operations)
        .map((op) => /^range\.values A(\d+):DP(\d+)$/.exec(op))
        .filter((match) => match !== null)
        .map((match) => ({ first: Number(match[1]), last: Number(match[2]) }));
      const bigRowLine = bigRowAt + 2;
      expect(chunks.find((chunk) => chunk.first <= bigRowLine && bigRowLine <= chunk.last)?.first).toBe(
        bigRowLine,
      );
      const sheet = excel.sheet("Wide");
      expect(sheet.values.slice(1)).toEqual(rows);
      expect(sheet.rowValueWrites.slice(1).every((count) => count === 1)).toBe(true);
    },
  );

  it("sizes chunks by bytes, not rows: wide rows get smaller chunks than narrow ones", async () => {
    const narrow = new MockExcel();
    narrow.addSheet("Sheet1");
    await writeTable(narrow.context, numberedTable(2_000, 10), {
      sheetName: "T",
      requestBudgetBytes: 50_000,
    });
    const wide = new MockExcel();
    wide.addSheet("Sheet1");
    await writeTable(wide.context, numberedTable(2_000, 500), { sheetName: "T", requestBudgetBytes: 50_000 });

    const dataRequests = (excel: MockExcel) =>
      excel.requests.filter((r) => r.operations.some((op) => op.startsWith("range.values"))).length;
    expect(dataRequests(wide)).toBeGreaterThan(dataRequests(narrow) * 3);
    for (const request of [...narrow.requests, ...wide.requests]) expect(request.bytes).toBeLessThan(60_000);
  });

  it("formats each column by kind, freezes the header, fits the columns and makes a table", async () => {
    const excel = new MockExcel();
    excel.addSheet("Sheet1");

    const result = await writeTable(excel.context, numberedTable(3), { sheetName: "Units" });

    const sheet = excel.sheet("Units");
    expect(sheet.numberFormats[1]).toEqual([
      NUMBER_FORMAT_BY_KIND.identifier,
      "@",
      "$#,##0.00",
      "yyyy-mm-dd",
      undefined,
    ]);
    expect(sheet.numberFormats[3]?.[2]).toBe("$#,##0.00");
    // Each format travels once for its whole column, before the first value.
    const operations = excel.requests.map((r) => r.operations);
    expect(operations.flat().filter((op) => op.startsWith("range.numberFormat"))).toEqual([
      "range.numberFormat A2:A4",
      "range.numberFormat B2:B4",
      "range.numberFormat C2:C4",
      "range.numberFormat D2:D4",
    ]);
    const formatsAt = operations.findIndex((ops) => ops.some((op) => op.startsWith("range.numberFormat")));
    const valuesAt = operations.findIndex((ops) => ops.some((op) => op.startsWith("range.values A2")));
    expect(formatsAt).toBeLessThan(valuesAt);
    expect(sheet.frozenRows).toBe(1);
    expect(sheet.tables).toEqual([{ address: "A1:E4", hasHeaders: true }]);
    expect(result.address).toBe("A1:E4");
    expect(sheet.autofitted).toEqual(["A1:E4"]);
    expect(excel.activeSheet).toBe("Units");
  });

  it("never overwrites an existing sheet: the new one gets a numbered name", async () => {
    const excel = new MockExcel();
    excel.addSheet("Downtown Comps");
    excel.setValues("Downtown Comps", "A1", [["keep me"]]);

    const result = await writeTable(excel.context, numberedTable(2), { sheetName: "downtown comps" });

    expect(result.sheetName).toBe("downtown comps (2)");
    expect(excel.cellValue("Downtown Comps", "A1")).toBe("keep me");
    expect(excel.cellValue("downtown comps (2)", "A1")).toBe("ID");
  });

  it("reports progress after each request, ending at the total", async () => {
    const excel = new MockExcel();
    excel.addSheet("Sheet1");
    const progress: WriteProgress[] = [];

    await writeTable(excel.context, numberedTable(1_000, 100), {
      sheetName: "P",
      requestBudgetBytes: 20_000,
      onProgress: (p) => progress.push(p),
    });

    expect(progress.length).toBeGreaterThan(3);
    expect(progress.map((p) => p.rowsWritten)).toEqual(
      [...progress.map((p) => p.rowsWritten)].sort((a, b) => a - b),
    );
    expect(progress.at(-1)).toEqual({ rowsWritten: 1_000, totalRows: 1_000 });
  });

  it("stops when cancelled and removes the half-written sheet", async () => {
    const excel = new MockExcel();
    excel.addSheet("Sheet1");
    const controller = new AbortController();

    const write = writeTable(excel.context, numberedTable(1_000, 100), {
      sheetName: "Cancelled",
      requestBudgetBytes: 20_000,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.rowsWritten > 100) controller.abort();
      },
    });

    await expect(write).rejects.toMatchObject({ name: "AbortError" });
    expect(excel.findSheet("Cancelled")).toBeUndefined();
    expect(excel.sheets.map((s) => s.name)).toEqual(["Sheet1"]);
  });

  it("writes a header-only table when there are no rows", async () => {
    const excel = new MockExcel();
    excel.addSheet("Sheet1");

    const result = await writeTable(excel.context, numberedTable(0), { sheetName: "Empty" });

    expect(result.rowsWritten).toBe(0);
    expect(excel.sheet("Empty").values).toEqual([
      ["ID", "Unit Name", "Min Rent", "Date Available", "Is Leased"],
    ]);
    expect(excel.sheet("Empty").tables[0]?.address).toBe("A1:E2");
  });

  it("refuses a row too large for any request instead of sending it", async () => {
    const excel = new MockExcel();
    excel.addSheet("Sheet1");

    await expect(
      writeTable(excel.context, numberedTable(3, 5_000), { sheetName: "Huge", requestBudgetBytes: 1_000 }),
    ).rejects.toThrow(/Row 1 alone is about \d+ bytes/);
    expect(excel.findSheet("Huge")).toBeUndefined();
  });

  it("refuses a table larger than a worksheet before touching the workbook", async () => {
    const excel = new MockExcel();
    excel.addSheet("Sheet1");
    const data: TableData = {
      columns: numberedTable(0).columns,
      rows: { length: 1_048_576 } as unknown as CellValue[][],
    };

    await expect(writeTable(excel.context, data, { sheetName: "Too big" })).rejects.toThrow(
      /1,048,576 rows and 5 columns; a worksheet holds at most 1,048,575 rows/,
    );
    expect(excel.requests).toEqual([]);
  });

  it("refuses a table longer than the sheet it is given (a small grid for tests), before any write", async () => {
    const excel = new MockExcel();
    excel.addSheet("Sheet1");

    await expect(
      writeTable(excel.context, numberedTable(4), { sheetName: "Small", maxSheetRows: 4 }),
    ).rejects.toThrow(/4 rows and 5 columns; a worksheet holds at most 3 rows under the header/);
    expect(excel.requests).toEqual([]);
    await writeTable(excel.context, numberedTable(3), { sheetName: "Small", maxSheetRows: 4 });
    expect(excel.sheet("Small").values).toHaveLength(4);
  });

  it("makes duplicate headers unique, since Excel tables need distinct column names", async () => {
    const excel = new MockExcel();
    excel.addSheet("Sheet1");
    const data: TableData = {
      columns: [
        { field: "sq_ft", header: "Sq Ft", kind: "number" },
        { field: "sqft", header: "Sq Ft", kind: "number" },
      ],
      rows: [[1, 2]],
    };

    await writeTable(excel.context, data, { sheetName: "Dup" });

    expect(excel.sheet("Dup").values[0]).toEqual(["Sq Ft", "Sq Ft (2)"]);
  });
});
