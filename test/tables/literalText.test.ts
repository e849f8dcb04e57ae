import { asLiteralText, MAX_CELL_TEXT_LENGTH } from "../../src/tables/literalText";
import { toCellValue } from "../../src/tables/tableData";

describe("asLiteralText", () => {
  it("keeps text that Excel would read as a formula as text", () => {
    expect(asLiteralText('=WEBSERVICE("https://evil.example")')).toBe(
      '\'=WEBSERVICE("https://evil.example")',
    );
    expect(asLiteralText("+1 555 0100")).toBe("'+1 555 0100");
    expect(asLiteralText("-$25.00")).toBe("'-$25.00");
    expect(asLiteralText("@home")).toBe("'@home");
    expect(asLiteralText("The Residences")).toBe("The Residences");
  });

  it("cuts text to Excel's per-cell limit", () => {
    const cut = asLiteralText("x".repeat(MAX_CELL_TEXT_LENGTH + 10));
    expect(cut).toHaveLength(MAX_CELL_TEXT_LENGTH);
    expect(cut.endsWith("…")).toBe(true);
  });

  it("applies to every text a table writes", () => {
    expect(toCellValue("=1+1", "text")).toBe("'=1+1");
    expect(toCellValue(["=a", "b"], "text")).toBe("'=a; b");
    expect(toCellValue("2026-03-01", "date")).toBe(46082);
  });
});
