import { asLiteralText, MAX_CELL_TEXT_LENGTH } from "../../src/tables/literalText";

describe("asLiteralText at Excel's per-cell limit", () => {
  it("keeps a text of exactly the limit whole, and cuts one a character longer", () => {
    const full = "x".repeat(MAX_CELL_TEXT_LENGTH);
    expect(asLiteralText(full)).toBe(full);
    const over = asLiteralText(`${full}y`);
    expect(over).toHaveLength(MAX_CELL_TEXT_LENGTH);
    expect(over.endsWith("…")).toBe(true);
    expect(MAX_CELL_TEXT_LENGTH).toBe(32_767);
  });

  it("counts the apostrophe that keeps a formula-like text as text toward the limit", () => {
    const text = `=${"x".repeat(MAX_CELL_TEXT_LENGTH - 1)}`;
    const written = asLiteralText(text);
    expect(written).toHaveLength(MAX_CELL_TEXT_LENGTH);
    expect(written.startsWith("'=")).toBe(true);
  });
});
