import type { CellRect } from "./a1";
import { DEFAULT_REQUEST_BUDGET_BYTES, jsonByteLength } from "../tables/payloadBytes";

/** A range's grid properties the add-in reads back. */
export type GridProperty = "formulas" | "values" | "valuesAsJson";

/** A rectangle of one sheet to read. */
export interface CellRead {
  readonly sheetName: string;
  readonly rect: CellRect;
}

export interface BoundedReadOptions {
  /** What one request may bring back; the default leaves Excel's 5 MB a wide margin. */
  readonly budgetBytes?: number;
  /**
   * What a cell is assumed to read as until one is read: a formula or a plain value is a few hundred bytes, an
   * entity card through valuesAsJson about ten thousand.
   */
  readonly firstBytesPerCell?: number;
}

/** A part of a read (all its columns, some of its rows) sent in one request. */
interface Piece {
  readonly index: number;
  readonly sheetName: string;
  readonly rect: CellRect;
}

/** The budget a range and its load take in the request itself: a few actions of office.js. */
const PIECE_REQUEST_BYTES = 400;

/** Bytes of a formula or a plain value, before any has been read (20,000 cells to a request). */
export const PLAIN_CELL_BYTES = 200;

const cellsOf = (rect: CellRect) => rect.rowCount * rect.columnCount;

/** Excel's answer to a response over its limit: the request is sent again in smaller parts. */
function isResponseTooLarge(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ResponsePayloadSizeLimitExceeded";
}

/**
 * Reads `properties` of every rectangle in requests whose responses stay under Excel's 5 MB limit. What a cell
 * reads back is known only once read (a number is a few bytes, an entity card ten thousand), so each request is
 * sized by the most bytes per cell seen so far, rectangles split by rows where they do not fit; a request Excel
 * still refuses as too large is sent again on twice the estimate. Gives each rectangle's grids, in order.
 */
export async function readBounded<P extends GridProperty>(
  context: Excel.RequestContext,
  reads: readonly CellRead[],
  properties: readonly P[],
  options: BoundedReadOptions = {},
): Promise<Record<P, unknown[][]>[]> {
  const budget = options.budgetBytes ?? DEFAULT_REQUEST_BUDGET_BYTES;
  let bytesPerCell = options.firstBytesPerCell ?? PLAIN_CELL_BYTES;
  const grids = reads.map(() => Object.fromEntries(properties.map((p) => [p, [] as unknown[][]])));
  const pending: Piece[] = reads.map((read, index) => ({ index, ...read }));
  while (pending.length > 0) {
    const taken = takeRequest(pending, budget, bytesPerCell * properties.length);
    const loaded = taken.map((piece) => {
      const { row, column, rowCount, columnCount } = piece.rect;
      const range = context.workbook.worksheets
        .getItem(piece.sheetName)
        .getRangeByIndexes(row, column, rowCount, columnCount);
      range.load([...properties]);
      return { piece, range };
    });
    try {
      await context.sync();
    } catch (error) {
      // One row alone cannot be split further.
      if (!isResponseTooLarge(error) || (taken.length === 1 && taken[0]!.rect.rowCount === 1)) throw error;
      bytesPerCell *= 2;
      pending.unshift(...taken);
      continue;
    }
    for (const { piece, range } of loaded) {
      const grid = grids[piece.index] as Record<string, unknown[][]>;
      let bytes = 0;
      for (const property of properties) {
        const rows = range[property] as unknown[][];
        bytes += jsonByteLength(rows);
        grid[property]!.push(...rows);
      }
      bytesPerCell = Math.max(bytesPerCell, Math.ceil(bytes / properties.length / cellsOf(piece.rect)));
    }
  }
  return grids as Record<P, unknown[][]>[];
}

/** Takes from the front of `pending` what one request carries: whole pieces, then the rows of one that fit. */
function takeRequest(pending: Piece[], budget: number, bytesPerCell: number): Piece[] {
  const taken: Piece[] = [];
  let bytes = 0;
  while (pending.length > 0) {
    const piece = pending[0]!;
    const cost = cellsOf(piece.rect) * bytesPerCell + PIECE_REQUEST_BYTES;
    if (bytes + cost <= budget) {
      taken.push(piece);
      bytes += cost;
      pending.shift();
      continue;
    }
    // The rows that fit in what is left, or one row when nothing is taken yet (a request is never empty).
    const rowBytes = piece.rect.columnCount * bytesPerCell;
    const rows = Math.min(
      piece.rect.rowCount - 1,
      Math.floor((budget - bytes - PIECE_REQUEST_BYTES) / rowBytes),
    );
    const fitting = taken.length === 0 ? Math.max(1, rows) : rows;
    if (fitting >= 1 && fitting < piece.rect.rowCount) {
      const { rect } = piece;
      taken.push({ ...piece, rect: { ...rect, rowCount: fitting } });
      pending[0] = {
        ...piece,
        rect: { ...rect, row: rect.row + fitting, rowCount: rect.rowCount - fitting },
      };
    } else if (taken.length === 0) {
      taken.push(piece);
      pending.shift();
    }
    break;
  }
  return taken;
}
