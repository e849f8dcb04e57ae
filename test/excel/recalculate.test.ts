import { recalculateWorkbook } from "../../src/excel/recalculate";
import { underwritingWorkbook } from "./support/rentWorkbook";

describe("recalculateWorkbook", () => {
  const globals = globalThis as { Excel?: unknown };
  afterEach(() => {
    delete globals.Excel;
  });

  it("enters this workbook's RENT formulas again, and asks no full calculation of every open workbook", async () => {
    const excel = underwritingWorkbook();
    globals.Excel = { run: excel.excel.run, CalculationType: { full: "Full" } };

    await recalculateWorkbook();

    expect(excel.calculations).toEqual([]);
    const rewritten = excel.requests
      .flatMap((r) => r.operations)
      .filter((op) => op.startsWith("range.formulas"));
    expect(rewritten).toHaveLength(4);
  });
});
