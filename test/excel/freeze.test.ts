import { freezeRentFormulas } from "../../src/excel/freeze";
import { restoreRentFormulas } from "../../src/excel/restore";
import { FROZEN_STORE_SHEET_NAME } from "../../src/excel/frozenFormulaStore";
import { EXCEL_REQUEST_LIMIT_BYTES } from "../../src/tables/payloadBytes";
import { underwritingWorkbook } from "./support/rentWorkbook";

describe("freezeRentFormulas", () => {
  it("replaces RENT formulas with the values they show, spills included, and keeps the formulas hidden", async () => {
    const excel = underwritingWorkbook();

    const result = await freezeRentFormulas(excel.context, { kind: "workbook" });

    expect(result.frozen.map((f) => `${f.sheetName}!${f.address}`)).toEqual([
      "Model!B2",
      "Model!B3",
      "Comps!A1",
      "Comps!E1",
    ]);
    expect(excel.cellFormula("Model", "B2")).toBeUndefined();
    expect(excel.cellValue("Model", "B2")).toBe(1850);
    expect(excel.cellFormula("Comps", "A1")).toBeUndefined();
    expect(
      excel
        .sheet("Comps")
        .values.slice(0, 4)
        .map((row) => row.slice(0, 2)),
    ).toEqual([
      ["unit", "rent"],
      ["U1", 1500],
      ["U2", 1501],
      ["U3", 1502],
    ]);
    expect(excel.sheet("Comps").spills.size).toBe(0);
    expect(excel.cellFormula("Model", "C2")).toBe("=SUM(A5:A6)");

    const store = excel.sheet(FROZEN_STORE_SHEET_NAME);
    expect(store.visibility).toBe("VeryHidden");
    expect(store.values.slice(1).map(([json]) => JSON.parse(String(json)))).toContainEqual({
      sheetName: "Comps",
      address: "A1",
      formula: "=RENT.UNITS(3)",
      rowCount: 4,
      columnCount: 2,
    });
  });

  it("freezes a text result as text, even one that starts like a formula", async () => {
    const excel = underwritingWorkbook();
    excel.setFormula("Model", "F1", "=RENT.NARRATIVE(5)");

    await freezeRentFormulas(excel.context, { kind: "sheet", sheetName: "Model" });

    expect(excel.cellFormula("Model", "F1")).toBeUndefined();
    expect(excel.cellValue("Model", "F1")).toBe("'=text that looks like a formula");
  });

  it("leaves formulas that are still calculating in place and says which", async () => {
    const excel = underwritingWorkbook();
    excel.setFormula("Model", "F3", "=RENT.FORECAST(2)");

    const result = await freezeRentFormulas(excel.context, { kind: "sheet", sheetName: "Model" });

    expect(result.frozen.map((f) => f.address)).toEqual(["B2", "B3"]);
    expect(result.stillCalculating.map((c) => c.address)).toEqual(["F3"]);
    expect(excel.cellFormula("Model", "F3")).toBe("=RENT.FORECAST(2)");
  });

  it("freezes only the selection when asked", async () => {
    const excel = underwritingWorkbook();
    excel.selection = { sheet: "Model", rect: { row: 1, column: 1, rowCount: 1, columnCount: 1 } };

    const result = await freezeRentFormulas(excel.context, { kind: "selection" });

    expect(result.frozen.map((f) => f.address)).toEqual(["B2"]);
    expect(excel.cellFormula("Model", "B2")).toBeUndefined();
    expect(excel.cellFormula("Model", "B3")).toBe('=IFERROR(rent.property(456,"asking_rent"),0)');
    expect(excel.cellFormula("Comps", "A1")).toBe("=RENT.UNITS(3)");
  });

  it("keeps every request under the limit when a freeze writes many large spills", async () => {
    const excel = underwritingWorkbook();
    for (let i = 0; i < 40; i++) excel.setFormula("Comps", `H${1 + i * 2_100}`, "=RENT.UNITS(2000)");

    const result = await freezeRentFormulas(
      excel.context,
      { kind: "sheet", sheetName: "Comps" },
      { requestBudgetBytes: 200_000 },
    );

    expect(result.frozen).toHaveLength(42);
    expect(excel.cellValue("Comps", `I${40 * 2_100 - 2_100 + 2_001}`)).toBe(3499);
    expect(excel.cellFormula("Comps", "H1")).toBeUndefined();
    const writes = excel.requests.filter((r) => r.operations.some((op) => op.startsWith("range.values H")));
    expect(writes.length).toBeGreaterThan(3);
    for (const request of excel.requests) expect(request.bytes).toBeLessThan(EXCEL_REQUEST_LIMIT_BYTES);
    for (const request of writes) expect(request.bytes).toBeLessThan(260_000);
  });
});

describe("restoreRentFormulas", () => {
  it("puts every frozen formula back, lets arrays spill again, and removes the hidden store", async () => {
    const excel = underwritingWorkbook();
    await freezeRentFormulas(excel.context, { kind: "workbook" });
    excel.setValues("Comps", "B4", [["typed over a frozen value"]]);

    const result = await restoreRentFormulas(excel.context, { kind: "workbook" });

    expect(result.restored).toHaveLength(4);
    expect(result.missingSheets).toEqual([]);
    expect(excel.cellFormula("Model", "B2")).toBe('=RENT.PROPERTY(123,"asking_rent")');
    expect(excel.cellFormula("Model", "B3")).toBe('=IFERROR(rent.property(456,"asking_rent"),0)');
    expect(excel.cellFormula("Comps", "A1")).toBe("=RENT.UNITS(3)");
    expect(excel.sheet("Comps").spills.get("0,0")).toEqual({ rowCount: 4, columnCount: 2 });
    expect(excel.cellValue("Comps", "B4")).toBe(1502);
    expect(excel.findSheet(FROZEN_STORE_SHEET_NAME)).toBeUndefined();
  });

  it("restores one sheet and keeps the other sheet's formulas for later", async () => {
    const excel = underwritingWorkbook();
    await freezeRentFormulas(excel.context, { kind: "workbook" });

    const first = await restoreRentFormulas(excel.context, { kind: "sheet", sheetName: "Comps" });

    expect(first.restored.map((f) => f.address)).toEqual(["A1", "E1"]);
    expect(excel.cellFormula("Model", "B2")).toBeUndefined();
    expect(excel.sheet(FROZEN_STORE_SHEET_NAME).values.filter(([v]) => v !== "")).toHaveLength(3);

    const second = await restoreRentFormulas(excel.context, { kind: "workbook" });
    expect(second.restored.map((f) => f.address)).toEqual(["B2", "B3"]);
    expect(excel.cellFormula("Model", "B2")).toBe('=RENT.PROPERTY(123,"asking_rent")');
    expect(excel.findSheet(FROZEN_STORE_SHEET_NAME)).toBeUndefined();
  });

  it("restores the latest formula of a cell frozen twice", async () => {
    const excel = underwritingWorkbook();
    await freezeRentFormulas(excel.context, { kind: "sheet", sheetName: "Model" });
    excel.setFormula("Model", "B2", '=RENT.PROPERTY(999,"asking_rent")');
    await freezeRentFormulas(excel.context, { kind: "sheet", sheetName: "Model" });

    await restoreRentFormulas(excel.context, { kind: "sheet", sheetName: "Model" });

    expect(excel.cellFormula("Model", "B2")).toBe('=RENT.PROPERTY(999,"asking_rent")');
    expect(excel.cellFormula("Model", "B3")).toBe('=IFERROR(rent.property(456,"asking_rent"),0)');
  });

  it("reports formulas of a deleted sheet and keeps them", async () => {
    const excel = underwritingWorkbook();
    await freezeRentFormulas(excel.context, { kind: "workbook" });
    excel.sheets.splice(excel.sheets.indexOf(excel.sheet("Comps")), 1);

    const result = await restoreRentFormulas(excel.context, { kind: "workbook" });

    expect(result.restored.map((f) => f.address)).toEqual(["B2", "B3"]);
    expect(result.missingSheets).toEqual(["Comps"]);
    const kept = excel
      .sheet(FROZEN_STORE_SHEET_NAME)
      .values.slice(1)
      .filter(([v]) => v !== "");
    expect(kept.map(([json]) => JSON.parse(String(json)).address)).toEqual(["A1", "E1"]);
  });

  it("does nothing when nothing was frozen", async () => {
    const excel = underwritingWorkbook();

    const result = await restoreRentFormulas(excel.context, { kind: "workbook" });

    expect(result).toMatchObject({ restored: [], missingSheets: [] });
    expect(excel.cellFormula("Model", "B2")).toBe('=RENT.PROPERTY(123,"asking_rent")');
  });
});
