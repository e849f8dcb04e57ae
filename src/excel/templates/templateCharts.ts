/**
 * A template's charts: each of a RENT block the template writes (the comp set's survey, the monthly forecast),
 * made with the chart module (src/excel/charts) once the block has answered, since a chart is pointed at the
 * cells a spill covers and a formula still calculating spills nothing. A block that ends in an error gets no
 * chart, and the reason is given back for the pane to show.
 */
import { parseCellAddress } from "../a1";
import { ChartBlockError, blockChartName, chartBlock, type ChartKind } from "../charts";

export interface TemplateChart {
  /** The anchor of the RENT formula whose spill the chart shows. */
  readonly at: string;
  readonly kind: ChartKind;
  /** The figure to chart, when not the block's first of its kind. */
  readonly field?: string;
}

export type ChartedBlock =
  { readonly at: string; readonly chartName: string } | { readonly at: string; readonly problem: string };

type Run = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

export interface WaitOptions {
  /** How long to wait for a block to answer before giving up on its chart. */
  readonly timeoutMs: number;
  readonly pollMs: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

export const DEFAULT_WAIT: WaitOptions = { timeoutMs: 120_000, pollMs: 250 };

const BUSY = "#BUSY!";

/** What the anchor shows once it is no longer #BUSY!, or undefined when it still is after the wait. */
async function answered(run: Run, sheetName: string, at: string, wait: WaitOptions): Promise<unknown> {
  const sleep = wait.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = wait.now ?? Date.now;
  const until = now() + wait.timeoutMs;
  const { row, column } = parseCellAddress(at);
  for (;;) {
    const shown = await run(async (context) => {
      const cell = context.workbook.worksheets.getItem(sheetName).getRangeByIndexes(row, column, 1, 1);
      cell.load("values");
      await context.sync();
      return cell.values[0]?.[0];
    });
    if (shown !== BUSY) return shown;
    if (now() >= until) return undefined;
    await sleep(wait.pollMs);
  }
}

/** Charts each block once it has answered; returns the chart's name, or why there is none. */
export async function chartTemplateBlocks(
  run: Run,
  sheetName: string,
  charts: readonly TemplateChart[],
  wait: WaitOptions = DEFAULT_WAIT,
  /** What a block's figures are as of, in words, for its chart's title (as "Chart this block" titles one). */
  asOf?: (sheetName: string, anchor: string) => string | undefined,
): Promise<ChartedBlock[]> {
  const results: ChartedBlock[] = [];
  for (const chart of charts) {
    const shown = await answered(run, sheetName, chart.at, wait);
    if (shown === undefined) {
      results.push({ at: chart.at, problem: `${chart.at} was still calculating, so it has no chart yet` });
      continue;
    }
    if (typeof shown === "string" && shown.startsWith("#")) {
      results.push({ at: chart.at, problem: `${chart.at} shows ${shown}, so it has no chart` });
      continue;
    }
    try {
      await run(async (context) => {
        const { row, column } = parseCellAddress(chart.at);
        const anchor = context.workbook.worksheets.getItem(sheetName).getRangeByIndexes(row, column, 1, 1);
        const when = asOf?.(sheetName, chart.at);
        await chartBlock(context, anchor, chart.kind, {
          ...(chart.field === undefined ? {} : { field: chart.field }),
          ...(when ? { asOf: when } : {}),
        });
      });
      results.push({ at: chart.at, chartName: blockChartName(chart.kind, chart.at) });
    } catch (error) {
      if (!(error instanceof ChartBlockError)) throw error;
      results.push({ at: chart.at, problem: error.message });
    }
  }
  return results;
}
