/**
 * How the pane's charts read a block's layout: a history block's is the functions' to say (historyLayout.ts),
 * and src/excel/ does not import src/functions/, so the pane hands this reader to the chart module, which asks
 * it each time a block is charted or followed (a recalculation may add periods, rows, or turn the block long).
 */
import type { BlockLayouts, WideHistory } from "../excel/charts";
import { rentFunctionsIn } from "../excel/rentFormulas";
import {
  HISTORY_KEY_COLUMNS,
  historyBlockLayout,
  type HistoryFunction,
} from "../functions/shape/historyLayout";

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

/** The layouts the pane's charts read blocks by. */
export const CHART_LAYOUTS: BlockLayouts = { wideHistoryOf };
