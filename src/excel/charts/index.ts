/** Native Excel charts of RENT blocks (docs/taskpane.md, "Charts"). */
export { CHART_KINDS, CHARTED_FUNCTIONS, chartKindOf, type ChartKind } from "./blockKind";
export {
  planChart,
  type Block,
  type BlockLayouts,
  type ChartOptions,
  type ChartPlan,
  type ChartProblem,
  type WideHistory,
} from "./chartPlan";
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
export {
  BAR_ORDERS,
  planMarketsSort,
  rankedMarketsFormula,
  type BarOrder,
  type MarketsSort,
} from "./marketsOrder";
