import { rowChunks } from "../../src/excel/rowChunks";

/** The chunks of rows of these sizes; measuring a row the table does not have fails the test. */
const chunks = (sizes: number[], budget: number) =>
  [...rowChunks(sizes.length, (index) => sizeOf(sizes, index), budget)].map(({ start, end, bytes }) => [
    start,
    end,
    bytes,
  ]);

function sizeOf(sizes: number[], index: number): number {
  const size = sizes[index];
  if (size === undefined)
    throw new Error(`rowChunks measured row ${index} of a table of ${sizes.length} rows`);
  return size;
}

describe("rowChunks", () => {
  it("fills a chunk up to exactly the budget, and starts the next at the row that would pass it", () => {
    expect(chunks([40, 60, 30, 70, 1], 100)).toEqual([
      [0, 2, 100],
      [2, 4, 100],
      [4, 5, 1],
    ]);
  });

  it("takes a row of exactly the budget alone, and refuses one a byte over it, naming it", () => {
    expect(chunks([100, 100], 100)).toEqual([
      [0, 1, 100],
      [1, 2, 100],
    ]);
    expect(() => chunks([10, 101], 100)).toThrow(
      "Row 2 alone is about 101 bytes, over the 100-byte request budget: it cannot be written to Excel in one request.",
    );
  });

  it("yields nothing for no rows", () => {
    expect(chunks([], 100)).toEqual([]);
  });
});
