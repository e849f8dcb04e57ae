import { findRentFormulaCells, isRentFormula } from "../../src/excel/rentFormulas";
import { refreshRentFormulas } from "../../src/excel/refresh";
import { underwritingWorkbook } from "./support/rentWorkbook";
import type { MockExcel } from "./support/mockExcel";

const rewrittenCells = (excel: MockExcel) =>
  excel.requests.flatMap((r) => r.operations).filter((op) => op.startsWith("range.formulas"));

describe("isRentFormula", () => {
  it("recognises RENT calls anywhere in a formula and nothing else", () => {
    expect(isRentFormula('=RENT.PROPERTY(1,"x")')).toBe(true);
    expect(isRentFormula("=IFERROR(rent.units(1), 0)")).toBe(true);
    expect(isRentFormula("=1+RENT.MARKET (5)")).toBe(true);
    expect(isRentFormula("=MYRENT.PROPERTY(1)")).toBe(false);
    expect(isRentFormula("=SUM(A1:A3)")).toBe(false);
    expect(isRentFormula("RENT.PROPERTY(1)")).toBe(false);
    expect(isRentFormula(42)).toBe(false);
  });
});

describe("findRentFormulaCells", () => {
  it("finds the RENT formulas of the whole workbook", async () => {
    const excel = underwritingWorkbook();

    const cells = await findRentFormulaCells(excel.context, { kind: "workbook" });

    expect(cells.map((c) => `${c.sheetName}!${c.address}`)).toEqual([
      "Model!B2",
      "Model!B3",
      "Comps!A1",
      "Comps!E1",
    ]);
    expect(cells[0]?.formula).toBe('=RENT.PROPERTY(123,"asking_rent")');
  });

  it("finds those of one sheet, the active one by default", async () => {
    const excel = underwritingWorkbook();
    excel.activeSheet = "Comps";

    const active = await findRentFormulaCells(excel.context, { kind: "sheet" });
    const model = await findRentFormulaCells(excel.context, { kind: "sheet", sheetName: "Model" });

    expect(active.map((c) => c.address)).toEqual(["A1", "E1"]);
    expect(model.map((c) => c.address)).toEqual(["B2", "B3"]);
  });

  it("finds those inside the selection only", async () => {
    const excel = underwritingWorkbook();
    excel.selection = { sheet: "Model", rect: { row: 2, column: 0, rowCount: 10, columnCount: 3 } };

    const cells = await findRentFormulaCells(excel.context, { kind: "selection" });

    expect(cells.map((c) => c.address)).toEqual(["B3"]);
  });

  it("finds the formulas of a large sheet by their areas, without reading its other cells", async () => {
    const excel = underwritingWorkbook();
    const rows = 50_010;
    excel.setValues(
      "Comps",
      "J1",
      Array.from({ length: rows }, (_, i) => [i]),
    );
    excel.setFormula("Comps", `J${rows + 1}`, "=RENT.PROPERTY(9)");

    const cells = await findRentFormulaCells(excel.context, { kind: "sheet", sheetName: "Comps" });

    expect(cells.map((c) => c.address)).toEqual(["A1", "E1", `J${rows + 1}`]);
    // The used range, the formula cells' areas, their formulas.
    expect(excel.requests).toHaveLength(3);
  });
});

describe("refreshRentFormulas", () => {
  it("re-enters the RENT formulas of the workbook and leaves every other cell alone", async () => {
    const excel = underwritingWorkbook();

    const result = await refreshRentFormulas(excel.context, { kind: "workbook" });

    expect(result.cells).toHaveLength(4);
    expect(rewrittenCells(excel)).toEqual([
      "range.formulas B2",
      "range.formulas B3",
      "range.formulas A1",
      "range.formulas E1",
    ]);
    expect(excel.cellFormula("Model", "B3")).toBe('=IFERROR(rent.property(456,"asking_rent"),0)');
    expect(excel.calculations).toEqual([]);
  });

  it("targets one sheet or the selection", async () => {
    const sheet = underwritingWorkbook();
    await refreshRentFormulas(sheet.context, { kind: "sheet", sheetName: "Comps" });
    expect(rewrittenCells(sheet)).toEqual(["range.formulas A1", "range.formulas E1"]);

    const selection = underwritingWorkbook();
    selection.selection = { sheet: "Model", rect: { row: 0, column: 1, rowCount: 2, columnCount: 1 } };
    await refreshRentFormulas(selection.context, { kind: "selection" });
    expect(rewrittenCells(selection)).toEqual(["range.formulas B2"]);
  });

  it("tells the caller which cells are about to recalculate before any is re-entered", async () => {
    const excel = underwritingWorkbook();
    const seen: { addresses: string[]; rewrittenSoFar: number }[] = [];

    await refreshRentFormulas(
      excel.context,
      { kind: "sheet", sheetName: "Model" },
      {
        beforeRecalculate: (cells) => {
          seen.push({ addresses: cells.map((c) => c.address), rewrittenSoFar: rewrittenCells(excel).length });
        },
      },
    );

    expect(seen).toEqual([{ addresses: ["B2", "B3"], rewrittenSoFar: 0 }]);
    expect(rewrittenCells(excel)).toHaveLength(2);
  });

  it("sends nothing when the scope has no RENT formula", async () => {
    const excel = underwritingWorkbook();
    excel.selection = { sheet: "Model", rect: { row: 0, column: 0, rowCount: 1, columnCount: 1 } };
    const hook = jest.fn();

    const result = await refreshRentFormulas(
      excel.context,
      { kind: "selection" },
      { beforeRecalculate: hook },
    );

    expect(result.cells).toEqual([]);
    expect(hook).not.toHaveBeenCalled();
    expect(rewrittenCells(excel)).toEqual([]);
  });
});
