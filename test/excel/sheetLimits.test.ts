import { dataRowsPerSheet, EXCEL_MAX_ROWS, sheetsNeeded } from "../../src/excel/sheetLimits";

describe("sheet limits", () => {
  it("counts sheets with one header row each, at Excel's documented 1,048,576 rows", () => {
    expect(EXCEL_MAX_ROWS).toBe(1_048_576);
    expect(dataRowsPerSheet()).toBe(1_048_575);
    expect(sheetsNeeded(0)).toBe(1);
    expect(sheetsNeeded(1_048_575)).toBe(1);
    expect(sheetsNeeded(1_048_576)).toBe(2);
    expect(sheetsNeeded(2 * 1_048_575)).toBe(2);
    expect(sheetsNeeded(2 * 1_048_575 + 1)).toBe(3);
    expect(sheetsNeeded(10, 4)).toBe(4);
    // The smallest grid there can be: a header and one row, a sheet for each row.
    expect(sheetsNeeded(3, 2)).toBe(3);
  });

  it("refuses a grid that cannot hold a header and a row", () => {
    expect(() => sheetsNeeded(5, 1)).toThrow(/at least one row/);
    expect(() => dataRowsPerSheet(2.5)).toThrow(RangeError);
  });
});
