import { DEFAULT_REQUEST_BUDGET_BYTES } from "../tables/payloadBytes";

/** Rows [start, end) of a table that travel together in one request, and their estimated bytes. */
export interface RowChunk {
  readonly start: number;
  readonly end: number;
  readonly bytes: number;
}

/**
 * Cuts rows into consecutive chunks whose estimated payload stays within the budget. Rows vary wildly in size
 * (a unit with a long concession text weighs ten times a bare one), so the cut follows the bytes, not a row
 * count. Every row lands in exactly one chunk, in order.
 */
export function* rowChunks(
  rowCount: number,
  rowBytes: (index: number) => number,
  budgetBytes: number = DEFAULT_REQUEST_BUDGET_BYTES,
): Generator<RowChunk> {
  let start = 0;
  let bytes = 0;
  for (let index = 0; index < rowCount; index++) {
    const size = rowBytes(index);
    if (size > budgetBytes) {
      throw new RangeError(
        `Row ${index + 1} alone is about ${size} bytes, over the ${budgetBytes}-byte request budget: it cannot be written to Excel in one request.`,
      );
    }
    if (index > start && bytes + size > budgetBytes) {
      yield { start, end: index, bytes };
      start = index;
      bytes = 0;
    }
    bytes += size;
  }
  if (rowCount > start) yield { start, end: rowCount, bytes };
}
