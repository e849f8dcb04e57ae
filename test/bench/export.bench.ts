/**
 * Export benchmark (issue 8): 100,000 unit rows from a parquet and a csv job file, parsed, shaped and written
 * in chunks into an office-addin-mock workbook. Prints rows per second, peak memory and the largest single
 * request payload (Excel's limit is 5 MB).
 *
 *   npx tsx test/bench/export.bench.ts [--json] [--rows 100000]
 *
 * Each format runs in its own process so its peak memory is its own.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { EXCEL_REQUEST_LIMIT_BYTES } from "../../src/tables/payloadBytes";
import { shapeTable, type TableData } from "../../src/tables/tableData";
import { writeTable } from "../../src/excel/tableWriter";
import { parseExportFile } from "../../src/formats/exportFile";
import type { ExportFormat } from "../../src/formats/parsedTable";
import { MockExcel } from "../excel/support/mockExcel";
import { writeExportFile } from "../../sandbox/jobs/exportWriter";
import { unitExportRows } from "../formats/support/unitExportFiles";
import { argument } from "./benchArgs";

interface FormatFigures {
  format: ExportFormat;
  rows: number;
  file_bytes: number;
  parse_ms: number;
  shape_ms: number;
  write_ms: number;
  total_ms: number;
  rows_per_s: number;
  requests: number;
  largest_request_bytes: number;
  peak_rss_mb: number;
}

const BENCH_FORMATS: readonly ExportFormat[] = ["parquet", "csv"];

/** A job file as the sandbox's job worker writes it (same writer, same contract columns). */
async function writeJobFile(directory: string, format: ExportFormat, rowCount: number): Promise<string> {
  const path = join(directory, `units.${format}`);
  await writeExportFile(path, format, "ExportUnitRow", unitExportRows(rowCount));
  return path;
}

/** Parsed rows go out of scope once shaped, as in the pane: only the shaped table stays alive for the write. */
async function parseAndShape(
  file: Uint8Array,
  format: ExportFormat,
): Promise<{ table: TableData; parsedAt: number }> {
  const parsed = await parseExportFile(file, format);
  const parsedAt = performance.now();
  return { table: shapeTable(parsed.columns, parsed.rows), parsedAt };
}

/**
 * One format in this process, from a job file the parent wrote: the peak memory is reading, parsing, shaping
 * and writing, not making the test data. Parse, shape and write are timed.
 */
async function measure(format: ExportFormat, path: string, rowCount: number): Promise<FormatFigures> {
  const file = new Uint8Array(readFileSync(path));
  const excel = new MockExcel();
  excel.addSheet("Sheet1");

  const start = performance.now();
  const { table, parsedAt } = await parseAndShape(file, format);
  const shapedAt = performance.now();
  const result = await writeTable(excel.context, table, { sheetName: `units ${format}` });
  const end = performance.now();

  const sheet = excel.sheet(result.sheetName);
  const lost = sheet.rowValueWrites.slice(1).filter((count) => count !== 1).length;
  if (result.rowsWritten !== rowCount || sheet.values.length !== rowCount + 1 || lost > 0) {
    throw new Error(
      `${format}: ${result.rowsWritten} of ${rowCount} rows written, ${lost} rows not written exactly once`,
    );
  }
  return {
    format,
    rows: rowCount,
    file_bytes: file.byteLength,
    parse_ms: Math.round(parsedAt - start),
    shape_ms: Math.round(shapedAt - parsedAt),
    write_ms: Math.round(end - shapedAt),
    total_ms: Math.round(end - start),
    rows_per_s: Math.round(rowCount / ((end - start) / 1000)),
    requests: excel.requests.length,
    largest_request_bytes: Math.max(...excel.requests.map((request) => request.bytes)),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

function runInChildProcess(format: ExportFormat, path: string, rowCount: number): FormatFigures {
  const child = spawnSync(
    process.execPath,
    [
      ...process.execArgv,
      process.argv[1] ?? "",
      "--child",
      format,
      "--file",
      path,
      "--rows",
      String(rowCount),
    ],
    { encoding: "utf8", maxBuffer: 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`${format} benchmark failed:\n${child.stderr}`);
  return JSON.parse(child.stdout) as FormatFigures;
}

function printTable(figures: readonly FormatFigures[]): void {
  const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(2)} MB`;
  console.log(
    `Export benchmark: ${figures[0]?.rows.toLocaleString("en-US")} unit rows -> office-addin-mock workbook\n`,
  );
  console.table(
    Object.fromEntries(
      figures.map((f) => [
        f.format,
        {
          "file size": mb(f.file_bytes),
          "parse ms": f.parse_ms,
          "shape ms": f.shape_ms,
          "write ms": f.write_ms,
          "total ms": f.total_ms,
          "rows/s": f.rows_per_s.toLocaleString("en-US"),
          requests: f.requests,
          "largest request": mb(f.largest_request_bytes),
          "peak RSS MB": f.peak_rss_mb,
        },
      ]),
    ),
  );
  const slowest = Math.min(...figures.map((f) => f.rows_per_s));
  const largest = Math.max(...figures.map((f) => f.largest_request_bytes));
  console.log(
    `\nGoal 50,000+ rows/s: ${slowest >= 50_000 ? "met" : "NOT met"} (slowest ${slowest.toLocaleString("en-US")})`,
  );
  console.log(
    `Every request under ${mb(EXCEL_REQUEST_LIMIT_BYTES)}: ${largest < EXCEL_REQUEST_LIMIT_BYTES ? "yes" : "NO"} (largest ${mb(largest)})`,
  );
}

async function main(): Promise<void> {
  const rowCount = Number(argument("--rows") ?? 100_000);
  const childFormat = argument("--child") as ExportFormat | undefined;
  if (childFormat) {
    process.stdout.write(JSON.stringify(await measure(childFormat, argument("--file") ?? "", rowCount)));
    return;
  }
  const directory = mkdtempSync(join(tmpdir(), "rent-export-bench-"));
  const figures: FormatFigures[] = [];
  try {
    for (const format of BENCH_FORMATS) {
      figures.push(runInChildProcess(format, await writeJobFile(directory, format, rowCount), rowCount));
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  if (process.argv.includes("--json")) console.log(JSON.stringify({ export: figures }, null, 2));
  else printTable(figures);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
