import { parseCellAddress } from "../excel/a1";
import { cellAsOf } from "../functions/cellAsOf";
import {
  CHARTED_FUNCTIONS,
  chartBlock,
  chartKindOf,
  followBlockCharts,
  planMarketsSort,
  refreshBlockCharts,
  type BarOrder,
  type ChartKind,
  type MarketsSort,
} from "../excel/charts";
import { axisTitleOf } from "../excel/charts/blockColumns";
import { readSelectedFormula } from "../excel/selectedFormula";
import { CHART_LAYOUTS } from "./chartLayouts";
import type { ExcelRunner } from "./excelRunner";
import { PaneInputError } from "./paneInputError";

const KIND_WORDS: Readonly<Record<ChartKind, string>> = {
  history: "a line per property over time",
  forecast: "the forecast's base line with its downside and upside",
  comparison: "a bar per market",
  rentBySize: "rent against size, the subject property marked",
};

/**
 * What a block's figures are as of, for its chart's title: the date of the data its last calculation rested on
 * (the latest), else the day it was fetched; nothing when the pane has not seen the block calculate.
 */
export function chartAsOf(sheetName: string, anchor: string): string | undefined {
  const asOf = cellAsOf(sheetName, anchor);
  if (!asOf) return undefined;
  const dataDates = asOf.lines.flatMap((line) => (line.lastDataDate ? [line.lastDataDate] : []));
  if (dataDates.length > 0) return `as of ${dataDates.sort().at(-1) ?? ""}`;
  const fetched = Math.max(asOf.calculatedAt, ...asOf.lines.map((line) => line.lastStoredAt));
  return `as of ${new Date(fetched).toISOString().slice(0, 10)}`;
}

const ORDER_WORDS: Readonly<Record<Exclude<BarOrder, "block">, string>> = {
  largest: "largest",
  smallest: "smallest",
};

/** What sorting the bars did to the block, truthfully: the formula's new ranking, and whether the markets may change. */
function sortWords(sort: MarketsSort, order: Exclude<BarOrder, "block">): string {
  const figure = axisTitleOf(sort.figure);
  if (!sort.changed)
    return `The block already ranks its markets ${ORDER_WORDS[order]} first by ${figure} (${sort.ranking}); its formula is unchanged.`;
  const which =
    sort.markets < sort.limit
      ? `All ${sort.markets} markets that match are listed, so these are the same markets, reordered.`
      : `The service ranks every market that matches and returns the first ${sort.limit} (the formula's limit): ` +
        `the block lists the ${sort.limit} with the ${ORDER_WORDS[order]} ${figure}, which may be other markets than before.`;
  return (
    `Bars ${ORDER_WORDS[order]} first by ${figure}: they read the block's cells in order, so the block is sorted — ` +
    `its formula now asks RENT.MARKETS for "${sort.ranking}". ${which}`
  );
}

/** "Chart this block": a native Excel chart of the selected RENT block, which follows the block from then on. */
export class ChartsController {
  constructor(private readonly runExcel: ExcelRunner) {}

  /**
   * Charts the block of the selected cell; `field` picks the figure (the block's first when empty). `order` sorts a
   * market comparison's bars by that figure: the bars read the block's cells in order, so the block is sorted, by
   * rewriting its RENT.MARKETS ranking options (sort, direction), once the chart is made.
   */
  async chartSelected(field: string, order: BarOrder = "block"): Promise<string> {
    return this.runExcel(async (context) => {
      const selected = await readSelectedFormula(context);
      const where = `${selected.sheetName}!${selected.address}`;
      const kind = selected.formula === undefined ? undefined : chartKindOf(selected.formula);
      if (kind === undefined) {
        throw new PaneInputError(
          `${where} is no block a chart shows: select a cell of a ${CHARTED_FUNCTIONS.join(", ")} block.`,
        );
      }
      const { row, column } = parseCellAddress(selected.address);
      const anchor = context.workbook.worksheets
        .getItem(selected.sheetName)
        .getRangeByIndexes(row, column, 1, 1);
      const figure = field.trim() === "" ? undefined : field.trim();
      if (order !== "block" && kind !== "comparison")
        throw new PaneInputError(
          `Sorting is for a market comparison's bars (RENT.MARKETS); ${where} is a ${kind} block, charted in its ` +
            `own order: choose "as in the block".`,
        );
      const sort = order === "block" ? undefined : await planMarketsSort(context, anchor, figure, order);
      const asOf = chartAsOf(selected.sheetName, selected.address);
      await chartBlock(
        context,
        anchor,
        kind,
        { ...(figure === undefined ? {} : { field: figure }), ...(asOf ? { asOf } : {}) },
        CHART_LAYOUTS,
      );
      const charted = `Charted ${where}: ${KIND_WORDS[kind]}, beside the block.`;
      const follows = "It follows the block when it recalculates.";
      if (!sort || order === "block") return `${charted} ${follows}`;
      if (sort.changed) {
        anchor.formulas = [[sort.formula]];
        await context.sync();
      }
      return `${charted} ${sortWords(sort, order)} ${follows}`;
    });
  }

  /** Follows the workbook's block charts: once now (a block may have changed while the pane was closed), then after each calculation. */
  async follow(onError: (error: unknown) => void): Promise<void> {
    const options = { ...CHART_LAYOUTS, asOf: chartAsOf };
    await this.runExcel((context) => refreshBlockCharts(context, options));
    await this.runExcel((context) => followBlockCharts(context, this.runExcel, { ...options, onError }));
  }
}
