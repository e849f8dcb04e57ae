import { createWriteStream, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import { ByteWriter, ParquetWriter, schemaFromColumnData } from "hyparquet-writer";
import Papa from "papaparse";
import { exportColumns, schemaProperties } from "../contract/schemaFields";
import type { OutputFormat } from "./jobStore";

type ParquetType = "INT32" | "DOUBLE" | "STRING";

function parquetType(schema: Record<string, unknown>): ParquetType {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes("integer") ? "INT32" : types.includes("number") ? "DOUBLE" : "STRING";
}

/** A row as a file writer sees it: values by column name (the rows are typed by their contract schema). */
export type FileRow = Readonly<Record<string, unknown>>;

export const FILE_EXTENSIONS: Record<OutputFormat, string> = {
  csv: "csv",
  jsonl: "jsonl",
  parquet: "parquet",
};

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson",
  parquet: "application/vnd.apache.parquet",
};

/**
 * Rows a job holds before they go to disk. Text goes out in small batches, so rows die young (cheap
 * to collect); a parquet batch is one row group, which readers want larger.
 */
export const EXPORT_BATCH_ROWS: Record<OutputFormat, number> = {
  csv: 1_000,
  jsonl: 1_000,
  parquet: 10_000,
};

/**
 * An export file being written batch by batch, so a job holds one batch of rows in memory, not
 * its whole output. `write` resolves once the file can take more (disk back-pressure).
 */
export interface ExportFileWriter {
  write(rows: FileRow[]): Promise<void>;
  /** Completes the file. */
  close(): Promise<void>;
  /** Stops writing and deletes what was written. */
  abort(): Promise<void>;
}

/** Writes a chunk and waits for the stream to drain when its buffer is full. */
async function writeChunk(stream: WriteStream, chunk: string | Uint8Array): Promise<void> {
  if (!stream.write(chunk)) await once(stream, "drain");
}

async function endStream(stream: WriteStream): Promise<void> {
  stream.end();
  await finished(stream);
}

function fileWriter(
  path: string,
  stream: WriteStream,
  write: (rows: FileRow[]) => Promise<void>,
  close: () => Promise<void>,
): ExportFileWriter {
  // A disk error arrives as an event; kept, it fails the next write or the close (and the job).
  let failure: Error | undefined;
  stream.on("error", (error) => (failure = error));
  const unlessFailed = async (work: () => Promise<void>) => {
    if (failure) throw failure;
    await work();
  };
  return {
    write: (rows) => unlessFailed(() => write(rows)),
    close: () => unlessFailed(close),
    abort: async () => {
      stream.destroy();
      await rm(path, { force: true });
    },
  };
}

/** Text formats: csv (RFC 4180: every record, the last included, ends with CRLF) and jsonl. */
function textWriter(path: string, format: "csv" | "jsonl", columns: string[]): ExportFileWriter {
  const stream = createWriteStream(path);
  const ordered = (row: FileRow) => columns.map((column) => row[column] ?? null);
  const encode =
    format === "csv"
      ? (rows: FileRow[]) => `${Papa.unparse(rows.map(ordered))}\r\n`
      : (rows: FileRow[]) =>
          rows
            .map((row) => `${JSON.stringify(Object.fromEntries(columns.map((c) => [c, row[c] ?? null])))}\n`)
            .join("");
  let header = format === "csv" ? `${Papa.unparse([columns])}\r\n` : "";
  const writeHeader = async () => {
    if (header) await writeChunk(stream, header);
    header = "";
  };
  return fileWriter(
    path,
    stream,
    async (rows) => {
      await writeHeader();
      if (rows.length > 0) await writeChunk(stream, encode(rows));
    },
    async () => {
      await writeHeader();
      await endStream(stream);
    },
  );
}

/** Parquet: each batch becomes one row group, flushed to disk before the next is encoded. */
function parquetWriter(path: string, columns: string[], schemaName: string): ExportFileWriter {
  const stream = createWriteStream(path);
  const properties = schemaProperties(schemaName);
  const schema = schemaFromColumnData({
    columnData: columns.map((name) => ({ name, data: [], type: parquetType(properties[name] ?? {}) })),
  });
  const bytes = new ByteWriter();
  const flush = async () => {
    // The byte writer reuses its buffer after a flush, so the stream gets a copy.
    const chunk = Buffer.from(bytes.buffer.slice(0, bytes.index));
    bytes.index = 0;
    if (chunk.length > 0) await writeChunk(stream, chunk);
  };
  const finish = async () => {
    await flush();
    await endStream(stream);
  };
  Object.assign(bytes, { flush, finish });
  const parquet = new ParquetWriter({ writer: bytes, schema });
  return fileWriter(
    path,
    stream,
    async (rows) => {
      if (rows.length === 0) return;
      await parquet.write({
        columnData: columns.map((name) => ({ name, data: rows.map((row) => row[name] ?? null) })),
        rowGroupSize: rows.length,
      });
    },
    async () => {
      await parquet.finish();
    },
  );
}

/** Opens an export file with the columns (and order) the contract's export row schema gives. */
export function openExportFile(path: string, format: OutputFormat, schemaName: string): ExportFileWriter {
  const columns = exportColumns(schemaName);
  return format === "parquet" ? parquetWriter(path, columns, schemaName) : textWriter(path, format, columns);
}

/** Writes a whole file at once (small exports, tests and benchmarks). */
export async function writeExportFile(
  path: string,
  format: OutputFormat,
  schemaName: string,
  rows: FileRow[],
): Promise<void> {
  const file = openExportFile(path, format, schemaName);
  await file.write(rows);
  await file.close();
}
