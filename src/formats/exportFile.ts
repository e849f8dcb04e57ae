import { parseCsv } from "./csv";
import { parseJsonl } from "./jsonl";
import { parseParquet } from "./parquet";
import { FormatError, type ExportFormat, type ParsedTable } from "./parsedTable";

function decodeText(bytes: Uint8Array, format: ExportFormat): string {
  try {
    // fatal: a file that is not UTF-8 is refused rather than read as garbled names; the BOM is dropped.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new FormatError(format, "it is not UTF-8 text.");
  }
}

function asArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const isWhole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return isWhole && bytes.buffer instanceof ArrayBuffer ? bytes.buffer : bytes.slice().buffer;
}

/** A downloaded or picked export file, by its format, to columns and typed rows. */
export async function parseExportFile(
  data: ArrayBuffer | Uint8Array,
  format: ExportFormat,
): Promise<ParsedTable> {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  switch (format) {
    case "csv":
      return await parseCsv(decodeText(bytes, format));
    case "jsonl":
      return parseJsonl(decodeText(bytes, format));
    case "parquet":
      return await parseParquet(asArrayBuffer(bytes));
  }
}

/** The format from a file name or content type, for "Load from file" and downloads. */
export function exportFormatOf(nameOrContentType: string): ExportFormat | undefined {
  const text = nameOrContentType.toLowerCase();
  if (/\.csv$|text\/csv/.test(text)) return "csv";
  if (/\.jsonl$|\.ndjson$|jsonl|ndjson/.test(text)) return "jsonl";
  if (/\.parquet$|parquet/.test(text)) return "parquet";
  return undefined;
}
