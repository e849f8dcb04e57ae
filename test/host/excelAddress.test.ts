/**
 * The stand-in writes sheet names in addresses as Excel does, by rules of its own (test/host/workbook/
 * excelAddress.ts, docs/hosts.md "Addresses"), so that the add-in's reading of addresses meets Excel's
 * spelling rather than its own.
 */
import { excelAddress, readExcelAddress } from "./workbook/excelAddress";

describe("sheet names in addresses, as Excel writes them", () => {
  it.each([
    ["Sheet1", "Sheet1!A1"],
    ["Model", "Model!A1"],
    ["École", "École!A1"],
    ["Лист1", "Лист1!A1"],
    ["Sheet.1", "Sheet.1!A1"],
    ["_draft", "_draft!A1"],
    ["Results", "Results!A1"],
    ["XFE1", "XFE1!A1"],
    ["A1048577", "A1048577!A1"],
    ["RCX", "RCX!A1"],
  ])("leaves %s bare", (name, address) => {
    expect(excelAddress(name, "A1")).toBe(address);
  });

  it.each([
    ["Q1", "'Q1'!A1"],
    ["FY24", "'FY24'!A1"],
    ["ev1", "'ev1'!A1"],
    ["XFD1048576", "'XFD1048576'!A1"],
    ["R2D2", "'R2D2'!A1"],
    ["C3PO", "'C3PO'!A1"],
    ["RC", "'RC'!A1"],
    ["R", "'R'!A1"],
    ["My Sheet", "'My Sheet'!A1"],
    ["Comp Set (2)", "'Comp Set (2)'!A1"],
    ["O'Brien", "'O''Brien'!A1"],
    ["P&L", "'P&L'!A1"],
    ["2024", "'2024'!A1"],
    [".hidden", "'.hidden'!A1"],
  ])("quotes %s", (name, address) => {
    expect(excelAddress(name, "A1")).toBe(address);
  });

  it("reads back what it writes, and refuses a bare name Excel would have quoted", () => {
    for (const name of ["École", "Q1", "O'Brien", "My Sheet", "Hi!"])
      expect(readExcelAddress(excelAddress(name, "B2"))).toEqual({ sheetName: name, cells: "B2" });
    expect(readExcelAddress("'Model'!B2")).toEqual({ sheetName: "Model", cells: "B2" });
    expect(readExcelAddress("Q1!B2")).toBeUndefined();
    expect(readExcelAddress("My Sheet!B2")).toBeUndefined();
  });
});
