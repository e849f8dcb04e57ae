import { rectsOverlap } from "../../src/taskpane/insert/insertTarget";

describe("rectsOverlap", () => {
  // The target: C3:D4 (rows 2-3, columns 2-3).
  const target = { row: 2, column: 2, rowCount: 2, columnCount: 2 };

  it("does not count a spill that starts on the row just below, or the column just right, as overlapping", () => {
    expect(rectsOverlap({ row: 4, column: 2, rowCount: 3, columnCount: 2 }, target)).toBe(false);
    expect(rectsOverlap(target, { row: 4, column: 2, rowCount: 3, columnCount: 2 })).toBe(false);
    expect(rectsOverlap({ row: 2, column: 4, rowCount: 2, columnCount: 3 }, target)).toBe(false);
    expect(rectsOverlap(target, { row: 2, column: 4, rowCount: 2, columnCount: 3 })).toBe(false);
  });

  it("does not count a spill that ends on the row just above, or the column just left, as overlapping", () => {
    expect(rectsOverlap({ row: 0, column: 2, rowCount: 2, columnCount: 2 }, target)).toBe(false);
    expect(rectsOverlap({ row: 2, column: 0, rowCount: 2, columnCount: 2 }, target)).toBe(false);
  });

  it("counts a spill sharing one cell at any corner as overlapping", () => {
    expect(rectsOverlap({ row: 3, column: 3, rowCount: 5, columnCount: 5 }, target)).toBe(true);
    expect(rectsOverlap({ row: 0, column: 0, rowCount: 3, columnCount: 3 }, target)).toBe(true);
    expect(rectsOverlap({ row: 3, column: 0, rowCount: 1, columnCount: 3 }, target)).toBe(true);
    expect(rectsOverlap({ row: 0, column: 3, rowCount: 3, columnCount: 1 }, target)).toBe(true);
  });
});
