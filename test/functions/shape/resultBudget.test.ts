import { withinResultBudget } from "../../../src/functions/shape/resultBudget";
import { jsonByteLength } from "../../../src/tables/payloadBytes";

const leftOutWords = (leftOut: number, total: number) => `${leftOut} of ${total} cells left out`;

describe("withinResultBudget", () => {
  // Each cell counts its JSON and one byte for the comma or bracket that follows it.
  const grid = [
    ["Mill Creek", 1850],
    ["Oak Park", 1725.5],
  ];
  const exact = grid.flat().reduce((bytes: number, cell) => bytes + jsonByteLength(cell) + 1, 0);

  it("keeps a grid that exactly fits whole, the very array it was given", () => {
    expect(withinResultBudget(grid, leftOutWords, exact)).toBe(grid);
  });

  it("a byte short, leaves out the last cell in reading order as #N/A saying how many", () => {
    const cut = withinResultBudget(grid, leftOutWords, exact - 1);
    expect(cut.slice(0, 1)).toEqual([["Mill Creek", 1850]]);
    expect(cut[1]?.[0]).toBe("Oak Park");
    expect(cut[1]?.[1]).toMatchObject({ code: "#N/A", message: "1 of 4 cells left out" });
  });
});
