import { recalculateRentFormulas, recalculateUnanswered } from "../../src/excel/recalculate";
import type { MockCellValue } from "./support/mockExcel";
import { evaluateRent, underwritingWorkbook } from "./support/rentWorkbook";
import type { MockExcel } from "./support/mockExcel";

const rewrittenCells = (excel: MockExcel) =>
  excel.requests.flatMap((r) => r.operations).filter((op) => op.startsWith("range.formulas"));

/** The underwriting model with cells that show no answer: a #N/A, a #BUSY!, and a #N/A that is only text. */
function workbookWithUnansweredCells(): MockExcel {
  const excel = underwritingWorkbook((formula): MockCellValue[][] | undefined =>
    /RENT\.PROPERTY\(999/i.test(formula) ? [["#N/A"]] : evaluateRent(formula),
  );
  excel.setFormula("Model", "B5", '=RENT.PROPERTY(999,"asking_rent")');
  excel.setFormula("Comps", "G1", '=RENT.FORECAST(5,"rent")');
  excel.setValues("Model", "B6", [["#N/A"]]);
  return excel;
}

describe("recalculateUnanswered", () => {
  const globals = globalThis as { Excel?: unknown };
  afterEach(() => {
    delete globals.Excel;
  });

  it("enters again only the RENT cells showing #N/A or #BUSY!, and asks Excel for no calculation", async () => {
    const excel = workbookWithUnansweredCells();
    globals.Excel = { run: excel.excel.run };
    expect(excel.cellValue("Model", "B5")).toBe("#N/A");
    expect(excel.cellValue("Comps", "G1")).toBe("#BUSY!");

    const entered = await recalculateUnanswered();

    expect(entered).toBe(2);
    expect(rewrittenCells(excel)).toEqual(["range.formulas B5", "range.formulas G1"]);
    expect(excel.calculations).toEqual([]);
    // The cells that show values keep them.
    expect(excel.cellValue("Model", "B2")).toBe(1850);
  });

  it("enters again a RENT.HISTORY cell left showing its export's wait (its call went with the runtime)", async () => {
    const excel = underwritingWorkbook((formula): MockCellValue[][] | undefined =>
      /RENT\.HISTORY\(A2,/i.test(formula)
        ? [["export submitting"]]
        : /RENT\.HISTORY/i.test(formula)
          ? [["export running, about 7 min"]]
          : evaluateRent(formula),
    );
    excel.setFormula("Model", "B5", '=RENT.HISTORY(A2:A11,"avg_rent","2025-02-01","2026-02-28","month")');
    excel.setFormula("Model", "B7", '=RENT.HISTORY(A2,"avg_rent","2025-02-01","2025-02-28")');
    globals.Excel = { run: excel.excel.run };

    expect(await recalculateUnanswered()).toBe(2);
    expect(rewrittenCells(excel)).toEqual(["range.formulas B5", "range.formulas B7"]);
  });

  it("enters nothing when every RENT cell shows a value", async () => {
    const excel = underwritingWorkbook();
    excel.setFormula("Comps", "G1", '=RENT.MARKET(6,"rent_avg_t30")');
    globals.Excel = { run: excel.excel.run };

    expect(await recalculateUnanswered()).toBe(0);
    expect(rewrittenCells(excel)).toEqual([]);
    expect(excel.calculations).toEqual([]);
  });
});

describe("recalculateRentFormulas", () => {
  const globals = globalThis as { Excel?: unknown };
  afterEach(() => {
    delete globals.Excel;
  });

  it("enters every RENT formula of the workbook again, and no other formula, without a full calculation", async () => {
    const excel = underwritingWorkbook();
    globals.Excel = { run: excel.excel.run };

    expect(await recalculateRentFormulas()).toBe(4);

    expect(rewrittenCells(excel)).toEqual([
      "range.formulas B2",
      "range.formulas B3",
      "range.formulas A1",
      "range.formulas E1",
    ]);
    expect(excel.calculations).toEqual([]);
  });
});
