import type { ChartKind } from "./blockKind";
import { CHART_KINDS } from "./blockKind";

/**
 * The block charts a workbook has, in its settings (Excel.SettingCollection, ExcelApi 1.4; saved with the file):
 * each chart's name and the block it follows, so the pane finds them again after a reload or on another computer.
 */
const CHARTS_KEY = "rentMarket.blockCharts";

export interface RememberedChart {
  /** The chart's name on its sheet (Chart.name): how the chart is found again. */
  readonly name: string;
  readonly sheetName: string;
  /** The block's anchor cell ("B3"): the formula whose spill the chart follows. */
  readonly anchor: string;
  readonly kind: ChartKind;
  /** The figure charted, when the person chose one. */
  readonly field?: string;
  /** The as-of its title last said: kept until a new one is known (a reloaded pane knows none before a calculation). */
  readonly asOf?: string;
  /** The cells and titles the chart was last pointed at: a recalculation that keeps them changes nothing. */
  readonly drawn?: string;
}

function isRemembered(value: unknown): value is RememberedChart {
  if (typeof value !== "object" || value === null) return false;
  const { name, sheetName, anchor, kind } = value as Partial<RememberedChart>;
  return (
    typeof name === "string" &&
    typeof sheetName === "string" &&
    typeof anchor === "string" &&
    CHART_KINDS.includes(kind as ChartKind)
  );
}

export async function readRememberedCharts(context: Excel.RequestContext): Promise<RememberedChart[]> {
  const setting = context.workbook.settings.getItemOrNullObject(CHARTS_KEY);
  setting.load("value");
  await context.sync();
  if (setting.isNullObject || typeof setting.value !== "string") return [];
  try {
    const value: unknown = JSON.parse(setting.value);
    return Array.isArray(value) ? value.filter(isRemembered) : [];
  } catch {
    return [];
  }
}

/** Queues the list to be kept (the caller's next sync writes it). */
export function keepRememberedCharts(
  context: Excel.RequestContext,
  charts: readonly RememberedChart[],
): void {
  context.workbook.settings.add(CHARTS_KEY, JSON.stringify(charts));
}

export const sameChart = (a: RememberedChart, b: Pick<RememberedChart, "name" | "sheetName">): boolean =>
  a.name === b.name && a.sheetName.toUpperCase() === b.sheetName.toUpperCase();
