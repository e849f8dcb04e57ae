import { readFileSync } from "node:fs";
import { join } from "node:path";
import { NUMBER_FORMAT_BY_KIND } from "../../src/tables/columnKinds";
import { isoToSerial } from "../../src/tables/excelDates";
import { exportFormatOf } from "../../src/formats/exportFile";
import { prepareExportFile, writePreparedExport } from "../../src/taskpane/jobLoader";
import { MockExcel } from "../excel/support/mockExcel";

/**
 * Property report files in the layout of a live jsonl job (api-notes, "Observed on the live service"): the day
 * in `report_generation_date`, the property in `id`, decimal percents in `*_pct`, rents in `avg_*`.
 */
describe.each(["live-property-report.jsonl", "live-property-report.csv"])("loading %s", (fileName) => {
  let sheet: { values: unknown[][]; numberFormats: string[][] };
  let rowsWritten: number;

  beforeAll(async () => {
    const excel = new MockExcel();
    const bytes = new Uint8Array(readFileSync(join(__dirname, "..", "fixtures", fileName)));
    const format = exportFormatOf(fileName);
    if (!format) throw new Error(`no format for ${fileName}`);
    const prepared = await prepareExportFile(bytes, format, { sheetName: "Live export", fileName });
    const loaded = await writePreparedExport(excel.excel.run, prepared);
    rowsWritten = loaded.rowsWritten;
    sheet = excel.sheet(loaded.sheetName);
  });

  const columnOf = (header: string) => {
    const index = sheet.values[0]?.indexOf(header) ?? -1;
    if (index < 0) throw new Error(`no column "${header}" in ${String(sheet.values[0])}`);
    return index;
  };
  const cells = (header: string) => sheet.values.slice(1).map((row) => row[columnOf(header)]);
  const format = (header: string) => sheet.numberFormats[1]?.[columnOf(header)];

  it("writes every row under readable headers", () => {
    expect(rowsWritten).toBe(4);
    expect(sheet.values[0]).toEqual([
      "Report generation date",
      "Id",
      "Property name",
      "Advertised occupancy %",
      "Leases, 30 d",
      "Applications, 7 d",
      "Avg rent",
      "Avg net eff. rent",
      "Avg rent per sf",
    ]);
  });

  it("makes the day an Excel date", () => {
    expect(cells("Report generation date")).toEqual(
      ["2026-02-27", "2026-02-28", "2026-02-27", "2026-02-28"].map((day) => isoToSerial(day)),
    );
    expect(format("Report generation date")).toBe(NUMBER_FORMAT_BY_KIND.date);
  });

  it("keeps the property id an id", () => {
    expect(cells("Id")).toEqual([99030676, 99030676, 99041203, 99041203]);
    expect(format("Id")).toBe(NUMBER_FORMAT_BY_KIND.identifier);
  });

  it("keeps decimal percents as fractions under Excel's % format, an empty cell for a missing one", () => {
    const occupancy = cells("Advertised occupancy %");
    expect(occupancy.slice(0, 3)).toEqual([0.9715, 0.9688, 0.912]);
    expect(occupancy[3]).toBe("");
    expect(format("Advertised occupancy %")).toBe(NUMBER_FORMAT_BY_KIND.percent);
  });

  it("formats rents as currency and activity counts as whole numbers", () => {
    expect(cells("Avg rent").slice(0, 3)).toEqual([1842.37, 1845.1, 1390]);
    expect(format("Avg rent")).toBe(NUMBER_FORMAT_BY_KIND.currency);
    expect(format("Avg net eff. rent")).toBe(NUMBER_FORMAT_BY_KIND.currency);
    expect(format("Avg rent per sf")).toBe(NUMBER_FORMAT_BY_KIND.currency);
    expect(cells("Leases, 30 d").slice(0, 3)).toEqual([14, 13, 6]);
    expect(format("Leases, 30 d")).toBe(NUMBER_FORMAT_BY_KIND.integer);
    expect(format("Applications, 7 d")).toBe(NUMBER_FORMAT_BY_KIND.integer);
  });
});
