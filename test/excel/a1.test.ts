import {
  cellAddress,
  columnLetters,
  parseCellAddress,
  parseSheetCell,
  rectAddress,
  rectContains,
} from "../../src/excel/a1";

describe("A1 addresses", () => {
  it("names columns as Excel does", () => {
    expect([0, 25, 26, 51, 701, 702, 16_383].map(columnLetters)).toEqual([
      "A",
      "Z",
      "AA",
      "AZ",
      "ZZ",
      "AAA",
      "XFD",
    ]);
  });

  it("round-trips cells and writes rectangles", () => {
    expect(cellAddress(0, 0)).toBe("A1");
    expect(parseCellAddress("$AB$12")).toEqual({ row: 11, column: 27 });
    expect(parseCellAddress(cellAddress(99_999, 20))).toEqual({ row: 99_999, column: 20 });
    expect(rectAddress({ row: 0, column: 0, rowCount: 100_001, columnCount: 21 })).toBe("A1:U100001");
    expect(rectAddress({ row: 4, column: 2, rowCount: 1, columnCount: 1 })).toBe("C5");
    expect(() => parseCellAddress("A1:B2")).toThrow(/Not a cell address/);
  });

  it("reads the sheet and cell of an address in either spelling Excel writes", () => {
    expect(parseSheetCell("Model!$B$2")).toEqual({ sheetName: "Model", row: 1, column: 1 });
    expect(parseSheetCell("École!A1")).toEqual({ sheetName: "École", row: 0, column: 0 });
    expect(parseSheetCell("'Q1'!C3")).toEqual({ sheetName: "Q1", row: 2, column: 2 });
    expect(parseSheetCell("'O''Brien'!A1")).toEqual({ sheetName: "O'Brien", row: 0, column: 0 });
    expect(parseSheetCell("'Hi!'!A1")).toEqual({ sheetName: "Hi!", row: 0, column: 0 });
    expect(parseSheetCell("Model!A1:B2")).toBeUndefined();
    expect(parseSheetCell("A1")).toBeUndefined();
    // A one-letter sheet name is a name; an address with no name before its "!" is not a sheet's.
    expect(parseSheetCell("Q!B2")).toEqual({ sheetName: "Q", row: 1, column: 1 });
    expect(parseSheetCell("!B2")).toBeUndefined();
  });

  it("tells whether a cell lies in a rectangle", () => {
    const rect = { row: 1, column: 1, rowCount: 2, columnCount: 2 };
    expect(rectContains(rect, 1, 1)).toBe(true);
    expect(rectContains(rect, 2, 2)).toBe(true);
    expect(rectContains(rect, 3, 2)).toBe(false);
    expect(rectContains(rect, 1, 0)).toBe(false);
  });
});
