import { SPILL_LOOKUPS_PER_REQUEST, spillsOf, type SheetCell } from "../../src/excel/spillLookups";
import { MockExcel } from "./support/mockExcel";

/** A sheet whose column A holds `count` formulas, every tenth spilling three columns to the right. */
function sheetOfFormulas(count: number): { excel: MockExcel; cells: SheetCell[] } {
  const excel = new MockExcel({
    evaluate: (formula) => (formula === "=SPILL()" ? [[1, 2, 3]] : [[0]]),
  });
  excel.addSheet("Model");
  const cells: SheetCell[] = [];
  for (let row = 0; row < count; row += 1) {
    excel.setFormula("Model", `A${row + 1}`, row % 10 === 0 ? "=SPILL()" : "=ONE()");
    cells.push({ sheetName: "Model", row, column: 0 });
  }
  return { excel, cells };
}

describe("spillsOf", () => {
  it("asks exactly as many requests as the cells fill, each at most the lookups one may carry", async () => {
    const { excel, cells } = sheetOfFormulas(2 * SPILL_LOOKUPS_PER_REQUEST);

    const spills = await spillsOf(excel.context, cells);

    expect(excel.requests).toHaveLength(2);
    expect(spills).toHaveLength(cells.length);
    expect(spills[0]).toEqual({ row: 0, column: 0, rowCount: 1, columnCount: 3 });
    expect(spills[1]).toBeUndefined();
    expect(spills[SPILL_LOOKUPS_PER_REQUEST + 10]).toEqual({
      row: SPILL_LOOKUPS_PER_REQUEST + 10,
      column: 0,
      rowCount: 1,
      columnCount: 3,
    });
  });

  it("sends no request for no cells", async () => {
    const { excel } = sheetOfFormulas(0);
    await expect(spillsOf(excel.context, [])).resolves.toEqual([]);
    expect(excel.requests).toEqual([]);
  });
});
