import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeExportFile } from "../../sandbox/jobs/exportWriter";
import { exportColumns } from "../../sandbox/contract/schemaFields";
import { shapeTable } from "../../src/tables/tableData";
import { parseExportFile } from "../../src/formats/exportFile";
import { unitExportRows } from "./support/unitExportFiles";

/** The files the sandbox's job worker writes, read back by the add-in's parsers. */
describe.each(["csv", "jsonl", "parquet"] as const)("a %s file written by the sandbox", (format) => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), "rent-formats-"));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("parses to the contract's columns with every row and value", async () => {
    const rows = unitExportRows(500);
    const path = join(directory, `units.${format}`);
    await writeExportFile(path, format, "ExportUnitRow", rows);

    const table = await parseExportFile(new Uint8Array(readFileSync(path)), format);

    expect(table.columns).toEqual(exportColumns("ExportUnitRow"));
    expect(table.rows).toHaveLength(rows.length);
    expect(table.rows).toEqual(rows.map((row) => table.columns.map((column) => row[column] ?? null)));
  });

  it("shapes into formatted columns: dates as serials, money as currency", async () => {
    const path = join(directory, `units-shaped.${format}`);
    await writeExportFile(path, format, "ExportUnitRow", unitExportRows(20));

    const parsed = await parseExportFile(new Uint8Array(readFileSync(path)), format);
    const kinds = Object.fromEntries(
      shapeTable(parsed.columns, parsed.rows).columns.map((c) => [c.field, c.kind]),
    );

    expect(kinds).toMatchObject({
      date: "date",
      property_id: "identifier",
      unit_name: "text",
      asking_rent: "currency",
      asking_rent_psf: "currency",
      bedroom_count: "integer",
      date_available: "date",
      concession_text: "text",
    });
  });
});
