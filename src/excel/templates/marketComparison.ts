/**
 * Market comparison: markets down column A (names or MSA ids, typed over as wanted), metrics across row 5
 * (any RENT.MARKET metric name), and one RENT.MARKET formula per pair that refers to both.
 */
import { cellAddress } from "../a1";
import { numberFormatForField } from "../../tables/columnKinds";
import type { SheetTemplate, TemplateCell } from "./sheetTemplate";

export const MARKET_COMPARISON_MARKETS = ["Austin", "Dallas", "Houston", "Phoenix"] as const;
export const MARKET_COMPARISON_METRICS = [
  "rent_avg_t30",
  "ner_avg_t30",
  "rent_psf_avg_t30",
  "leased_percent_avg_t30",
  "concession_percent_avg_t30",
  "rent_growth_rate_yoy_avg",
  "days_on_market_avg_t30",
  "total_unit_count",
] as const;

const HEADER_ROW = 4;

export function marketComparison(): SheetTemplate {
  const cells: TemplateCell[] = [
    { at: "A1", entry: "Market comparison" },
    { at: "A2", entry: "Type a market's name or MSA id in column A and any metric name in row 5." },
    { at: cellAddress(HEADER_ROW, 0), entry: "market" },
  ];
  MARKET_COMPARISON_METRICS.forEach((metric, index) => {
    cells.push({ at: cellAddress(HEADER_ROW, index + 1), entry: metric });
  });
  MARKET_COMPARISON_MARKETS.forEach((market, marketIndex) => {
    const row = HEADER_ROW + 1 + marketIndex;
    cells.push({ at: cellAddress(row, 0), entry: market });
    MARKET_COMPARISON_METRICS.forEach((metric, index) => {
      const column = index + 1;
      const marketCell = `$A${row + 1}`;
      const metricCell = `${cellAddress(HEADER_ROW, column).replace(/\d+$/, "")}$${HEADER_ROW + 1}`;
      cells.push({
        at: cellAddress(row, column),
        entry: `=RENT.MARKET(${marketCell}, ${metricCell})`,
        numberFormat: numberFormatForField(metric),
      });
    });
  });
  return { sheetName: "Market comparison", cells };
}
