import {
  HISTORY_KEY_COLUMNS,
  historyBlockLayout,
  type HistoryFunction,
} from "../../functions/shape/historyLayout";
import { rentFunctionsIn } from "../rentFormulas";

/**
 * Where a history block in its wide layout (`keys... | field | period...`) holds what, as a chart reads it. Which
 * layout a block has is the history layout's to say (historyLayout.ts), read from the block's header each time
 * the block is charted or followed: a recalculation may add periods, rows, or turn the block long.
 */
export interface WideHistory {
  /** The columns naming the property or floor plan, with the key each holds ("id", "property_name"). */
  readonly keyColumns: readonly { readonly index: number; readonly key: string }[];
  /** The column naming each row's field. */
  readonly fieldColumn: number;
  /** One column per period, in order, headed by the period's date. */
  readonly periodColumns: readonly number[];
}

const HISTORY_FUNCTIONS = Object.keys(HISTORY_KEY_COLUMNS) as HistoryFunction[];

/**
 * The wide layout of the history block a formula spills, from its header row; undefined when the formula's
 * first RENT call is no history function or the block is in its long layout (or shows no table).
 */
export function wideHistoryOf(
  formula: string | undefined,
  header: readonly unknown[],
): WideHistory | undefined {
  const called = formula === undefined ? undefined : rentFunctionsIn(formula)[0];
  const fn = HISTORY_FUNCTIONS.find((name) => name === called);
  if (fn === undefined) return undefined;
  const layout = historyBlockLayout(fn, header);
  if (layout?.layout !== "wide") return undefined;
  const keys = HISTORY_KEY_COLUMNS[fn];
  return {
    keyColumns: layout.keyColumns.map((index, at) => ({ index, key: keys[at] ?? "" })),
    fieldColumn: layout.fieldColumn,
    periodColumns: layout.periodColumns,
  };
}
