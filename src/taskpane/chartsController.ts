import { parseCellAddress } from "../excel/a1";
import { cellAsOf } from "../functions/cellAsOf";
import {
  CHARTED_FUNCTIONS,
  chartBlock,
  chartKindOf,
  followBlockCharts,
  refreshBlockCharts,
  type ChartKind,
} from "../excel/charts";
import { readSelectedFormula } from "../excel/selectedFormula";
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

/** "Chart this block": a native Excel chart of the selected RENT block, which follows the block from then on. */
export class ChartsController {
  constructor(private readonly runExcel: ExcelRunner) {}

  /** Charts the block of the selected cell; `field` picks the figure (the block's first when empty). */
  async chartSelected(field: string): Promise<string> {
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
      const asOf = chartAsOf(selected.sheetName, selected.address);
      await chartBlock(context, anchor, kind, {
        ...(field.trim() === "" ? {} : { field: field.trim() }),
        ...(asOf ? { asOf } : {}),
      });
      return `Charted ${where}: ${KIND_WORDS[kind]}, beside the block. It follows the block when it recalculates.`;
    });
  }

  /** Follows the workbook's block charts: once now (a block may have changed while the pane was closed), then after each calculation. */
  async follow(onError: (error: unknown) => void): Promise<void> {
    await this.runExcel((context) => refreshBlockCharts(context, { asOf: chartAsOf }));
    await this.runExcel((context) => followBlockCharts(context, this.runExcel, { asOf: chartAsOf, onError }));
  }
}
