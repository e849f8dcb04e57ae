import { rectContains } from "../../src/excel/a1";

describe("rectContains at a rectangle's edges", () => {
  // B2:D3: rows 1-2, columns 1-3.
  const rect = { row: 1, column: 1, rowCount: 2, columnCount: 3 };

  it("holds its four corners", () => {
    for (const [row, column] of [
      [1, 1],
      [1, 3],
      [2, 1],
      [2, 3],
    ] as const)
      expect(rectContains(rect, row, column)).toBe(true);
  });

  it("does not hold the cells just outside each side", () => {
    for (const [row, column] of [
      [0, 2],
      [3, 2],
      [1, 0],
      [1, 4],
      [2, 4],
    ] as const)
      expect([row, column, rectContains(rect, row, column)]).toEqual([row, column, false]);
  });
});
