/**
 * The shape rules of the functions that take things (property ids, markets) and fields, each one value or a
 * range: things down a column and fields across a row give one row per thing and one column per field, as
 * an underwriter lays out a comparison. One thing and one field give one value whose error is the cell's own;
 * in a block each cell carries its own error, so one bad id does not blank the rest.
 */
import { isEmptyArgument, readList, readName, readText } from "../args/scalars";
import { ArgumentError, toCellError } from "../cellErrors";

/** A range (or a matrix parameter's grid) as a grid; a single value is a 1x1 grid. */
export function grid(value: unknown): unknown[][] {
  return Array.isArray(value) ? (value as unknown[][]) : [[value]];
}

/** "asking_rent, unit_count" in one cell reads as those fields across a row, as a range holding them would. */
export function fieldGrid(field: unknown): unknown[][] {
  const cells = grid(field);
  const only = cells.length === 1 && cells[0]?.length === 1 ? cells[0][0] : undefined;
  if (typeof only !== "string" || !/[,;]/.test(only)) return cells;
  return [readList(only, "field", readText)];
}

export interface KeyedBlock {
  /** True when no field is named: the whole record is asked for. */
  wholeRecord: boolean;
  keysAreBlock: boolean;
  fieldsAreBlock: boolean;
  /** The field names as given (empty for a whole record). */
  fields: string[][];
}

const cellCount = (cells: unknown[][]) => cells.length * (cells[0]?.length ?? 0);

/** Reads the shape of a call, refusing the one layout that has no reading: both given as 2-D ranges. */
/** True when every cell of the grid is empty (0 from desktop Excel too); a loop, as every cell of a recalculation asks. */
function allBlank(cells: unknown[][]): boolean {
  for (let r = 0; r < cells.length; r += 1) {
    const row = cells[r] as unknown[];
    for (let c = 0; c < row.length; c += 1) if (!isEmptyArgument(row[c])) return false;
  }
  return true;
}

/** Each cell of a grid read by `read`, in the grid's shape (arrays made at their size: one per row, once). */
export function readGrid<T>(
  cells: unknown[][],
  read: (cell: unknown, argument: string) => T,
  argument: string,
): T[][] {
  const rows = new Array<T[]>(cells.length);
  for (let r = 0; r < cells.length; r += 1) {
    const row = cells[r] as unknown[];
    const values = new Array<T>(row.length);
    for (let c = 0; c < row.length; c += 1) values[c] = read(row[c], argument);
    rows[r] = values;
  }
  return rows;
}

export function keyedBlock(keys: unknown[][], fields: unknown[][], keyName: string): KeyedBlock {
  const wholeRecord = allBlank(fields);
  const keysAreBlock = cellCount(keys) > 1;
  const fieldsAreBlock = !wholeRecord && cellCount(fields) > 1;
  if (keysAreBlock && fieldsAreBlock && ((keys[0]?.length ?? 0) > 1 || fields.length > 1)) {
    throw new ArgumentError(
      `With several ${keyName}s and several fields, give the ${keyName}s down a column and the fields across a row.`,
    );
  }
  const names = wholeRecord ? [] : readGrid(fields, readName, "field");
  return { wholeRecord, keysAreBlock, fieldsAreBlock, fields: names };
}

function safely(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    return toCellError(error);
  }
}

/** The result grid of a call whose shape is `block`, each cell read by `valueOf` (which throws for errors). */
export function fillBlock<K>(
  keys: K[][],
  block: KeyedBlock,
  valueOf: (key: K, field: string) => unknown,
): unknown[][] {
  const firstKey = keys[0]?.[0] as K;
  const firstField = block.fields[0]?.[0] as string;
  if (!block.keysAreBlock && !block.fieldsAreBlock) return [[valueOf(firstKey, firstField)]];
  if (!block.fieldsAreBlock)
    return keys.map((row) => row.map((key) => safely(() => valueOf(key, firstField))));
  if (!block.keysAreBlock)
    return block.fields.map((row) => row.map((name) => safely(() => valueOf(firstKey, name))));
  const fieldRow = block.fields[0] as string[];
  return keys.map((row) => fieldRow.map((name) => safely(() => valueOf(row[0] as K, name))));
}

/** One whole record per key: alone, its own error; in a block, each cell carries its own. */
export function fillRecords<K>(keys: K[][], recordOf: (key: K) => unknown): unknown[][] {
  if (cellCount(keys) === 1) return [[recordOf(keys[0]?.[0] as K)]];
  return keys.map((row) => row.map((key) => safely(() => recordOf(key))));
}
