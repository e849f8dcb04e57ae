/**
 * The two layouts of a history block (RENT.HISTORY, RENT.FLOORPLANHISTORY), written here once and read here once:
 * the functions lay their spills out by these columns, and whatever reads a spilled block back (the pane's charts)
 * asks `historyBlockLayout` which layout it is and which columns are periods, instead of knowing it again.
 *
 * - long (the default): `date | keys... | fields...`, one row per key and period, a column per field.
 * - wide: `keys... | field | period... `, one row per field and key (each field's rows together, keys in the
 *   order of the long layout), one column per period headed by the period's date (an Excel date serial, the
 *   period's last day within the range, as the long layout dates it). A period without a value is an empty cell.
 *
 * The keys name the property or floor plan as the long layout does: RENT.HISTORY's `id`, RENT.FLOORPLANHISTORY's
 * property and plan. With `headers` "names" the header's text is the readable name; the positions are the same.
 */
import { plainValue } from "../args/scalars";

export const HISTORY_LAYOUTS = ["long", "wide"] as const;
export type HistoryLayout = (typeof HISTORY_LAYOUTS)[number];
/** A history's layout when a formula names none: the one it always had. */
export const DEFAULT_HISTORY_LAYOUT: HistoryLayout = "long";

/** The functions that spill a history block, by their names without the namespace. */
export type HistoryFunction = "HISTORY" | "FLOORPLANHISTORY";

/** The columns that name what a row is about: the property, or the property and its floor plan. */
export const HISTORY_KEY_COLUMNS: Readonly<Record<HistoryFunction, readonly string[]>> = {
  HISTORY: ["id"],
  FLOORPLANHISTORY: ["property_id", "property_name", "floor_plan", "bedroom_count", "bathroom_count"],
};

/** The long layout's first column: each row's period, dated by its last day within the range. */
export const LONG_DATE_COLUMN = "date";
/** The wide layout's column that names each row's field (by its id, or its readable name under "names"). */
export const WIDE_FIELD_COLUMN = "field";

/** Where a spilled history block holds what, by column index (0 is the block's first column). */
export type HistoryBlockLayout =
  | {
      layout: "long";
      dateColumn: number;
      keyColumns: number[];
      /** One column per field, headed by the field. */
      fieldColumns: number[];
    }
  | {
      layout: "wide";
      keyColumns: number[];
      fieldColumn: number;
      /** One column per period, in order. */
      periodColumns: number[];
      /** Each period column's date as the header holds it: an Excel date serial. */
      periods: number[];
    };

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => from + index);

/**
 * The layout of a history block, read from its header row (the spill's first row, as `Range.values` or the
 * function's result gives it: formatted dates arrive as numbers or as Double/FormattedNumber values). A header
 * whose cells after the keys and the field column are all dates is wide; one of text alone is long. Undefined
 * when the row is neither (not a history block of that function, or an error).
 */
export function historyBlockLayout(
  fn: HistoryFunction,
  header: readonly unknown[],
): HistoryBlockLayout | undefined {
  const keys = HISTORY_KEY_COLUMNS[fn].length;
  const cells = header.map(plainValue);
  if (cells.length < keys + 2) return undefined;
  const text = (cell: unknown) => typeof cell === "string" && cell !== "";
  const periods = cells.slice(keys + 1);
  if (cells.slice(0, keys + 1).every(text) && periods.every((cell) => typeof cell === "number"))
    return {
      layout: "wide",
      keyColumns: range(0, keys),
      fieldColumn: keys,
      periodColumns: range(keys + 1, cells.length),
      periods: periods as number[],
    };
  if (cells.every(text))
    return {
      layout: "long",
      dateColumn: 0,
      keyColumns: range(1, keys + 1),
      fieldColumns: range(keys + 1, cells.length),
    };
  return undefined;
}

/** One line of a history block: a property's (or floor plan's) field over the periods, whichever the layout. */
export interface HistorySeries {
  /** The key columns' values (RENT.HISTORY: the id). */
  keys: unknown[];
  /** The field as the block names it: its id, or its readable name under `headers` "names". */
  field: string;
  /** Each period's date (an Excel date serial) and value; an empty cell is "" (no value that period). */
  points: { period: number; value: unknown }[];
}

/**
 * The series a spilled history block holds, in either layout (plain values: a formatted number's number). Long
 * blocks give theirs by key, then field; wide blocks in their rows' order. Undefined when the block's header is
 * not a history header of that function (historyBlockLayout).
 */
export function historySeries(
  fn: HistoryFunction,
  block: readonly (readonly unknown[])[],
): HistorySeries[] | undefined {
  const [header = [], ...rows] = block;
  const shape = historyBlockLayout(fn, header);
  if (!shape) return undefined;
  const cell = (row: readonly unknown[], column: number) => plainValue(row[column]);
  if (shape.layout === "wide")
    return rows.map((row) => ({
      keys: shape.keyColumns.map((column) => cell(row, column)),
      field: String(cell(row, shape.fieldColumn)),
      points: shape.periodColumns.map((column, index) => ({
        period: shape.periods[index] as number,
        value: cell(row, column),
      })),
    }));
  const series = new Map<string, HistorySeries>();
  for (const row of rows) {
    const keys = shape.keyColumns.map((column) => cell(row, column));
    for (const column of shape.fieldColumns) {
      const field = String(cell(header, column));
      const id = JSON.stringify([keys, field]);
      const line = series.get(id) ?? { keys, field, points: [] };
      series.set(id, line);
      line.points.push({ period: cell(row, shape.dateColumn) as number, value: cell(row, column) });
    }
  }
  return [...series.values()];
}
