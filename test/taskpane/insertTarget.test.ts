import { firstFreeOffset } from "../../src/taskpane/insert/insertTarget";

describe("firstFreeOffset", () => {
  it("finds the first run of free columns across every row", () => {
    const window = [
      ["", 5, "", "", ""],
      ["", "", "x", "", ""],
    ];
    // Column 0 is free but only one wide; 1 and 2 hold something in some row; 3 and 4 are free in both rows.
    expect(firstFreeOffset(window, 1)).toBe(0);
    expect(firstFreeOffset(window, 2)).toBe(3);
  });

  it("counts a formula, a constant or a spilled value as taken, and null as free", () => {
    expect(firstFreeOffset([["=RENT.MARKET(1)", 0, false, null]], 1)).toBe(3);
  });

  it("has no place when no run is wide enough", () => {
    expect(firstFreeOffset([["", "a", "", ""]], 3)).toBeUndefined();
    expect(firstFreeOffset([], 1)).toBeUndefined();
  });
});
