import { numberedSheetName, sanitizeSheetName } from "../../src/excel/sheetNames";

describe("sheet names cut to Excel's 31 characters", () => {
  it("leaves no trailing space where the cut falls after a word", () => {
    // Characters 30 and 31 are "s" and a space: the cut name ends at the word.
    const wish = `${"Comparables for".padEnd(29, "x")}s more words`;
    const name = sanitizeSheetName(wish);
    expect(name).toBe(`${"Comparables for".padEnd(29, "x")}s`);
    expect(name.endsWith(" ")).toBe(false);
  });

  it("keeps a name of exactly 31 characters whole, and a numbered one within 31", () => {
    const exact = "A".repeat(31);
    expect(sanitizeSheetName(exact)).toBe(exact);
    expect(numberedSheetName(exact, 2)).toBe(`${"A".repeat(27)} (2)`);
    expect(numberedSheetName("Rent roll 2026 for the portfoli", 12)).toBe("Rent roll 2026 for the por (12)");
  });
});
