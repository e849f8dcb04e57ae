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
      "Report Generation Date",
      "ID",
      "Property Name",
      "Advertised Occupancy %",
      "Leases Last 30d",
      "Applications Last 7d",
      "Avg Rent",
      "Avg NER",
      "Avg Rent PSF",
    ]);
  });

  it("makes the day an Excel date", () => {
    expect(cells("Report Generation Date")).toEqual(
      ["2026-02-27", "2026-02-28", "2026-02-27", "2026-02-28"].map((day) => isoToSerial(day)),
    );
    expect(format("Report Generation Date")).toBe(NUMBER_FORMAT_BY_KIND.date);
  });

  it("keeps the property id an id", () => {
    expect(cells("ID")).toEqual([99030676, 99030676, 99041203, 99041203]);
    expect(format("ID")).toBe(NUMBER_FORMAT_BY_KIND.identifier);
  });

  it("keeps decimal percents as fractions under Excel's % format, an empty cell for a missing one", () => {
    const occupancy = cells("Advertised Occupancy %");
    expect(occupancy.slice(0, 3)).toEqual([0.9715, 0.9688, 0.912]);
    expect(occupancy[3]).toBe("");
    expect(format("Advertised Occupancy %")).toBe(NUMBER_FORMAT_BY_KIND.percent);
  });

  it("formats rents as currency and activity counts as whole numbers", () => {
    expect(cells("Avg Rent").slice(0, 3)).toEqual([1842.37, 1845.1, 1390]);
    expect(format("Avg Rent")).toBe(NUMBER_FORMAT_BY_KIND.currency);
    expect(format("Avg NER")).toBe(NUMBER_FORMAT_BY_KIND.currency);
    expect(format("Avg Rent PSF")).toBe(NUMBER_FORMAT_BY_KIND.currency);
    expect(cells("Leases Last 30d").slice(0, 3)).toEqual([14, 13, 6]);
    expect(format("Leases Last 30d")).toBe(NUMBER_FORMAT_BY_KIND.integer);
    expect(format("Applications Last 7d")).toBe(NUMBER_FORMAT_BY_KIND.integer);
  });
});
