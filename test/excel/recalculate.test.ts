import { recalculateWorkbook } from "../../src/excel/recalculate";
import { MockExcel } from "./support/mockExcel";

describe("recalculateWorkbook", () => {
  const globals = globalThis as { Excel?: unknown };
  afterEach(() => {
    delete globals.Excel;
  });

  it("asks Excel for a full recalculation in one request", async () => {
    const excel = new MockExcel();
    globals.Excel = { run: excel.excel.run, CalculationType: { full: "Full" } };

    await recalculateWorkbook();

    expect(excel.calculations).toEqual(["Full"]);
    expect(excel.requests).toHaveLength(1);
  });
});
