import type { CellValue, TableData } from "../../src/tables/tableData";
import { writeTableAcrossSheets } from "../../src/excel/splitTableWriter";
import type { WriteProgress } from "../../src/excel/tableWriter";
import { MockExcel } from "./support/mockExcel";

function table(rowCount: number): TableData {
  return {
    columns: [
      { field: "id", header: "ID", kind: "identifier" },
      { field: "avg_rent", header: "Avg Rent", kind: "currency" },
    ],
    rows: Array.from({ length: rowCount }, (_, i): CellValue[] => [i, 1000 + i]),
  };
}

function workbook(): MockExcel {
  const excel = new MockExcel();
  excel.addSheet("Model");
  return excel;
}

/** Every data row of the named sheets, in tab order, with the check that each sheet starts with the header. */
function dataRowsOf(excel: MockExcel, names: readonly string[]): unknown[][] {
  return names.flatMap((name) => {
    const sheet = excel.sheet(name);
    expect(sheet.values[0]).toEqual(["ID", "Avg Rent"]);
    expect(sheet.rowValueWrites.slice(1).every((count) => count === 1)).toBe(true);
    return sheet.values.slice(1);
  });
}

describe("writeTableAcrossSheets", () => {
  it("spreads a table longer than a sheet over numbered sheets, each with the header, every row exactly once", async () => {
    const excel = workbook();
    const data = table(10);
    const progress: WriteProgress[] = [];

    // A 4-row grid holds the header and 3 data rows: 10 rows take 4 sheets (3 + 3 + 3 + 1).
    const result = await writeTableAcrossSheets(excel.context, data, {
      sheetName: "Units export",
      maxSheetRows: 4,
      onProgress: (p) => progress.push(p),
    });

    const names = result.sheets.map((sheet) => sheet.sheetName);
    expect(names).toEqual(["Units export", "Units export (2)", "Units export (3)", "Units export (4)"]);
    expect(excel.sheets.map((sheet) => sheet.name)).toEqual(["Model", ...names]);
    expect(dataRowsOf(excel, names)).toEqual(data.rows);
    expect(names.map((name) => excel.sheet(name).values.length)).toEqual([4, 4, 4, 2]);
    expect(names.map((name) => excel.sheet(name).tables)).toEqual([
      [{ address: "A1:B4", hasHeaders: true }],
      [{ address: "A1:B4", hasHeaders: true }],
      [{ address: "A1:B4", hasHeaders: true }],
      [{ address: "A1:B2", hasHeaders: true }],
    ]);
    expect(result.rowsWritten).toBe(10);
    expect(progress.map((p) => p.rowsWritten)).toEqual([3, 6, 9, 10]);
    expect(progress.every((p) => p.totalRows === 10)).toBe(true);
    expect(excel.activeSheet).toBe("Units export");
  });

  it("uses one sheet when the table fits, and exactly full sheets when it divides evenly", async () => {
    const fits = workbook();
    const one = await writeTableAcrossSheets(fits.context, table(3), { sheetName: "T", maxSheetRows: 4 });
    expect(one.sheets.map((sheet) => sheet.sheetName)).toEqual(["T"]);

    const even = workbook();
    const two = await writeTableAcrossSheets(even.context, table(6), { sheetName: "T", maxSheetRows: 4 });
    expect(two.sheets.map((sheet) => sheet.sheetName)).toEqual(["T", "T (2)"]);
    expect(dataRowsOf(even, ["T", "T (2)"])).toEqual(table(6).rows);
  });

  it("keeps the number when the name is long, and never lands on an existing sheet", async () => {
    const excel = workbook();
    const long = "Floor plans export 1a2b3c4d with a long name";
    excel.addSheet("Units (2)");

    const longResult = await writeTableAcrossSheets(excel.context, table(5), {
      sheetName: long,
      maxSheetRows: 4,
    });
    const taken = await writeTableAcrossSheets(excel.context, table(5), {
      sheetName: "Units",
      maxSheetRows: 4,
    });

    const longNames = longResult.sheets.map((sheet) => sheet.sheetName);
    expect(longNames[1]).toMatch(/ \(2\)$/);
    expect(longNames.every((name) => name.length <= 31)).toBe(true);
    expect(taken.sheets.map((sheet) => sheet.sheetName)).toEqual(["Units", "Units (2) (2)"]);
    expect(excel.sheet("Units (2)").values).toEqual([]);
  });

  it("when cancelled part-way, removes the sheets already written as well as the half-written one", async () => {
    const excel = workbook();
    const controller = new AbortController();

    const write = writeTableAcrossSheets(excel.context, table(2_000), {
      sheetName: "Cancelled",
      maxSheetRows: 501,
      requestBudgetBytes: 2_000,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.rowsWritten > 1_200) controller.abort();
      },
    });

    await expect(write).rejects.toMatchObject({ name: "AbortError" });
    expect(excel.sheets.map((sheet) => sheet.name)).toEqual(["Model"]);
  });
});
