import { BudgetedBatch } from "../../src/excel/budgetedBatch";
import { EXCEL_REQUEST_LIMIT_BYTES, jsonByteLength } from "../../src/tables/payloadBytes";
import { MockExcel } from "./support/mockExcel";

/** A one-row block of `cells` cells of `length` characters each, as a spill or a frozen block would be. */
function block(cells: number, length: number, fill: string): string[][] {
  return [Array.from({ length: cells }, () => fill.repeat(length))];
}

describe("BudgetedBatch", () => {
  it("syncs what is pending before a write too large to join it, a single huge write included", async () => {
    const excel = new MockExcel();
    excel.addSheet("Model");
    const sheet = excel.context.workbook.worksheets.getItem("Model");
    const batch = new BudgetedBatch(excel.context);
    // ~1.5 MB of small writes, one write of ~3.8 MB, one of 0.2 MB: under the 4 MB budget no two groups fit together.
    const writes = [
      ...Array.from({ length: 30 }, () => block(50, 1_000, "s")),
      block(120, 32_000, "B"),
      block(50, 4_000, "t"),
    ];

    for (const [row, values] of writes.entries()) {
      await batch.add(jsonByteLength(values), () => {
        sheet.getRangeByIndexes(row, 0, 1, values[0]?.length ?? 0).values = values;
      });
    }
    await batch.flush();

    const sent = excel.requests.filter((request) => request.operations.length > 0);
    for (const request of sent) expect(request.bytes).toBeLessThan(EXCEL_REQUEST_LIMIT_BYTES);
    expect(sent.map((request) => request.operations.length)).toEqual([30, 1, 1]);
    expect(batch.requests).toBe(3);
    expect(excel.sheet("Model").values.map((row) => row[0]?.toString().charAt(0))).toEqual(
      writes.map((values) => values[0]?.[0]?.charAt(0)),
    );
  });

  it("shares a request among writes that fit together, and sends nothing when nothing is pending", async () => {
    const excel = new MockExcel();
    excel.addSheet("Model");
    const sheet = excel.context.workbook.worksheets.getItem("Model");
    const batch = new BudgetedBatch(excel.context, 1_000);

    for (let row = 0; row < 9; row++) {
      await batch.add(300, () => {
        sheet.getRangeByIndexes(row, 0, 1, 1).values = [[row]];
      });
    }
    await batch.flush();
    await batch.flush();

    // 300 bytes each under 1,000: three writes per request.
    expect(excel.requests.map((request) => request.operations.length)).toEqual([3, 3, 3]);
    expect(batch.requests).toBe(3);
  });
});
