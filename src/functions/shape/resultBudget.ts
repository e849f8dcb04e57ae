import { DEFAULT_REQUEST_BUDGET_BYTES, jsonByteLength } from "../../tables/payloadBytes";

/**
 * What one function result may carry. Excel limits a custom function's payload to 5 MB (office-js #4654) and a
 * result over it never reaches the cell; the margin covers what Excel adds around the values.
 */
export const RESULT_BUDGET_BYTES = DEFAULT_REQUEST_BUDGET_BYTES;

/**
 * The grid as it fits in one result: cells kept in reading order while they fit, every cell after that an #N/A
 * whose message (given how many were left out of how many) says so and how to get them.
 */
export function withinResultBudget(
  grid: unknown[][],
  leftOutMessage: (leftOut: number, total: number) => string,
  budgetBytes: number = RESULT_BUDGET_BYTES,
): unknown[][] {
  const total = grid.reduce((count, row) => count + row.length, 0);
  let bytes = 0;
  let kept = 0;
  for (const cell of grid.flat()) {
    bytes += jsonByteLength(cell) + 1;
    if (bytes > budgetBytes) break;
    kept++;
  }
  if (kept === total) return grid;
  const leftOut = new CustomFunctions.Error(
    CustomFunctions.ErrorCode.notAvailable,
    leftOutMessage(total - kept, total),
  );
  let index = 0;
  return grid.map((row) => row.map((cell) => (index++ < kept ? cell : leftOut)));
}
