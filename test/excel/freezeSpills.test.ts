import { freezeRentFormulas } from "../../src/excel/freeze";
import { restoreRentFormulas } from "../../src/excel/restore";
import { evaluateRent, underwritingWorkbook } from "./support/rentWorkbook";
import type { MockCellValue } from "./support/mockExcel";

describe("freezeRentFormulas on a spill still calculating", () => {
  it("leaves a spill whose #BUSY! is past its anchor in place", async () => {
    // The anchor answered; a later cell of the block still waits for the service.
    const evaluate = (formula: string): MockCellValue[][] | undefined =>
      /RENT\.COMPS/i.test(formula)
        ? [
            ["unit", "rent"],
            ["U1", 1500],
            ["U2", "#BUSY!"],
          ]
        : evaluateRent(formula);
    const excel = underwritingWorkbook(evaluate);
    excel.setFormula("Comps", "H1", "=RENT.COMPS(9)");

    const result = await freezeRentFormulas(excel.context, { kind: "sheet", sheetName: "Comps" });

    expect(result.stillCalculating.map((cell) => cell.address)).toEqual(["H1"]);
    expect(result.frozen.map((f) => f.address)).toEqual(["A1", "E1"]);
    expect(excel.cellFormula("Comps", "H1")).toBe("=RENT.COMPS(9)");
  });
});

describe("restoreRentFormulas on a one-row spill", () => {
  it("clears the frozen values of every cell of the row before the formula spills again", async () => {
    // Frozen while it answered three columns; restored when the service answers two: the third cell must not
    // keep a frozen value that reads as part of the live answer.
    let columns = 3;
    const evaluate = (formula: string): MockCellValue[][] | undefined =>
      /RENT\.ROW/i.test(formula)
        ? [Array.from({ length: columns }, (_, c) => 100 + c)]
        : evaluateRent(formula);
    const excel = underwritingWorkbook(evaluate);
    excel.setFormula("Comps", "H1", "=RENT.ROW(1)");
    const frozen = await freezeRentFormulas(excel.context, { kind: "sheet", sheetName: "Comps" });
    expect(frozen.frozen.find((f) => f.address === "H1")).toMatchObject({ rowCount: 1, columnCount: 3 });
    expect(excel.cellFormula("Comps", "H1")).toBeUndefined();
    expect(excel.cellValue("Comps", "J1")).toBe(102);

    columns = 2;
    await restoreRentFormulas(excel.context, { kind: "sheet", sheetName: "Comps" });

    expect(excel.cellFormula("Comps", "H1")).toBe("=RENT.ROW(1)");
    expect([excel.cellValue("Comps", "H1"), excel.cellValue("Comps", "I1")]).toEqual([100, 101]);
    expect(excel.cellValue("Comps", "J1")).toBe("");
  });

  it("clears a one-column spill the same way", async () => {
    let rows = 3;
    const evaluate = (formula: string): MockCellValue[][] | undefined =>
      /RENT\.COLUMN/i.test(formula)
        ? Array.from({ length: rows }, (_, r) => [200 + r])
        : evaluateRent(formula);
    const excel = underwritingWorkbook(evaluate);
    excel.setFormula("Comps", "H1", "=RENT.COLUMN(1)");
    await freezeRentFormulas(excel.context, { kind: "sheet", sheetName: "Comps" });

    rows = 2;
    await restoreRentFormulas(excel.context, { kind: "sheet", sheetName: "Comps" });

    expect(excel.cellValue("Comps", "H2")).toBe(201);
    expect(excel.cellValue("Comps", "H3")).toBe("");
  });
});

describe("restoreRentFormulas and as-of comments", () => {
  it("removes the as-of comment it wrote and keeps one a person edited", async () => {
    const excel = underwritingWorkbook();
    await freezeRentFormulas(
      excel.context,
      { kind: "sheet", sheetName: "Model" },
      { asOfText: ({ address }) => `Values as of 2026-11-27 (${address})` },
    );
    expect(excel.comments.map((c) => c.content).sort()).toEqual([
      "Values as of 2026-11-27 (B2)",
      "Values as of 2026-11-27 (B3)",
    ]);
    const edited = excel.comments.find((c) => c.content.endsWith("(B3)"));
    if (!edited) throw new Error("no as-of comment on B3");
    edited.content = "Values as of 2026-11-27 (B3) -- checked against the rent roll";

    await restoreRentFormulas(excel.context, { kind: "sheet", sheetName: "Model" });

    expect(excel.cellFormula("Model", "B2")).toBe('=RENT.PROPERTY(123,"asking_rent")');
    expect(excel.comments.map((c) => c.content)).toEqual([
      "Values as of 2026-11-27 (B3) -- checked against the rent roll",
    ]);
  });
});
