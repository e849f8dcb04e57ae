import {
  MAX_SHEET_NAME_LENGTH,
  freeSheetName,
  sanitizeSheetName,
  uniqueSheetName,
} from "../../src/excel/sheetNames";
import { MockExcel } from "./support/mockExcel";

describe("sanitizeSheetName", () => {
  it("replaces the characters Excel forbids", () => {
    expect(sanitizeSheetName("Comps [A/B]: 2026*?\\")).toBe("Comps -A-B-- 2026---");
  });

  it("cuts to 31 characters without splitting a character", () => {
    const name = sanitizeSheetName("Downtown Austin Class A Lease-Up Comparables 2026");
    expect(name).toBe("Downtown Austin Class A Lease-U");
    expect(name.length).toBeLessThanOrEqual(MAX_SHEET_NAME_LENGTH);
    const emoji = sanitizeSheetName(`${"a".repeat(30)}🏠🏠`);
    expect(Array.from(emoji)).toHaveLength(31);
    expect(emoji.endsWith("🏠")).toBe(true);
  });

  it("drops leading and trailing apostrophes, collapses whitespace, and never returns an empty or reserved name", () => {
    expect(sanitizeSheetName("  'Quoted'  ")).toBe("Quoted");
    expect(sanitizeSheetName("Two\n\tlines")).toBe("Two lines");
    expect(sanitizeSheetName("   ")).toBe("Sheet");
    expect(sanitizeSheetName("[]")).toBe("--");
    expect(sanitizeSheetName("history")).toBe("history data");
  });
});

describe("uniqueSheetName", () => {
  it("keeps a free name and numbers a taken one, ignoring case", () => {
    expect(uniqueSheetName("Units", ["Sheet1"])).toBe("Units");
    expect(uniqueSheetName("Units", ["UNITS"])).toBe("Units (2)");
    expect(uniqueSheetName("Units", ["Units", "units (2)", "Units (3)"])).toBe("Units (4)");
  });

  it("keeps numbered names within 31 characters", () => {
    const long = "Downtown Austin Class A Lease-Up Comparables";
    const first = uniqueSheetName(long, []);
    const second = uniqueSheetName(long, [first]);
    expect(second).toBe("Downtown Austin Class A Lea (2)");
    expect(second.length).toBeLessThanOrEqual(31);
    expect(uniqueSheetName(long, [first, second])).toBe("Downtown Austin Class A Lea (3)");
  });
});

describe("freeSheetName", () => {
  it("reads the workbook's sheet names and picks a free one", async () => {
    const excel = new MockExcel();
    excel.addSheet("Comp Set 1");
    excel.addSheet("Comp Set 1 (2)");

    await expect(freeSheetName(excel.context, "Comp Set 1")).resolves.toBe("Comp Set 1 (3)");
    await expect(freeSheetName(excel.context, "Other")).resolves.toBe("Other");
  });

  it("counts very hidden sheets too: Excel refuses a name even when its sheet is hidden", async () => {
    const excel = new MockExcel();
    excel.addSheet("Units", "VeryHidden");

    await expect(freeSheetName(excel.context, "Units")).resolves.toBe("Units (2)");
  });
});
