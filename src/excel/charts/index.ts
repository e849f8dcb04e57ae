/** Native Excel charts of RENT blocks (docs/taskpane.md, "Charts"). */
export { CHART_KINDS, CHARTED_FUNCTIONS, chartKindOf, type ChartKind } from "./blockKind";
export { planChart, type Block, type ChartOptions, type ChartPlan, type ChartProblem } from "./chartPlan";
export {
  ChartBlockError,
  blockChartName,
  chartBlock,
  followBlockCharts,
  refreshBlockCharts,
  type RefreshChartsOptions,
  type RefreshChartsResult,
} from "./chartBlock";
export { readRememberedCharts, type RememberedChart } from "./chartMemory";
