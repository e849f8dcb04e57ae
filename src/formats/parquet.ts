import { FormatError, type ParsedTable } from "./parsedTable";

/** Parquet int64 arrives as bigint; a number is what Excel and the rest of the add-in work with. */
function plainValue(value: unknown, dateOnly: boolean): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === "bigint") {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Date) return dateOnly ? value.toISOString().slice(0, 10) : value.toISOString();
  return value;
}

/**
 * Parquet via hyparquet. The library is imported when a parquet file arrives, not when the add-in starts: the
 * shared-runtime page stays small and most sessions never open a parquet file.
 */
export async function parseParquet(bytes: ArrayBuffer): Promise<ParsedTable> {
  const { parquetMetadata, parquetSchema, parquetRead } = await import(
    /* webpackChunkName: "hyparquet" */ "hyparquet"
  );
  let columns: string[];
  let dateColumns: boolean[];
  try {
    const metadata = parquetMetadata(bytes);
    const fields = parquetSchema(metadata).children;
    columns = fields.map((field) => field.element.name);
    dateColumns = fields.map(
      (field) => field.element.logical_type?.type === "DATE" || field.element.converted_type === "DATE",
    );
    let rows: unknown[][] = [];
    await parquetRead({
      file: bytes,
      metadata,
      onComplete: (data: unknown[][]) => {
        rows = data;
      },
    });
    return {
      columns,
      rows: rows.map((row) => row.map((value, index) => plainValue(value, dateColumns[index] ?? false))),
    };
  } catch (error) {
    throw new FormatError("parquet", (error as Error).message);
  }
}
