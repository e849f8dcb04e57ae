/**
 * The forecast functions' `interval`: one of the service's calendar buckets (the contract's ForecastInterval), or a
 * period forward from the current month as the vendor's v2 offers them (api-notes.md, v2 hints: `time_period`
 * next_12_months, next_3_years, next_5_years; forward periods from now, not calendar years). The v1 contract has no
 * such parameter, so a forward period is asked as the monthly forecast (one request, the same as the monthly
 * formula's, and shared with it) and its months are combined here.
 */
import { forecastIntervalValues, type components } from "../../api/schema";
import { ArgumentError } from "../cellErrors";
import { readChoice } from "./scalars";

type ForecastInterval = components["schemas"]["ForecastInterval"];
type AggregationType = components["schemas"]["AggregationType"];

/** Each forward period's months, from the current month's first day. */
export const FORWARD_PERIOD_MONTHS = {
  next_12_months: 12,
  next_3_years: 36,
  next_5_years: 60,
} as const;
export type ForwardPeriod = keyof typeof FORWARD_PERIOD_MONTHS;
export const FORWARD_PERIODS = Object.keys(FORWARD_PERIOD_MONTHS) as readonly ForwardPeriod[];

/**
 * How many months each calendar bucket spans; its type fails the type check when the contract gains an interval.
 */
export const INTERVAL_MONTHS: Readonly<Record<ForecastInterval, number>> = { month: 1, quarter: 3, year: 12 };

/**
 * The aggregations a forward period can make from monthly answers: a sum of monthly sums, the least of monthly
 * minimums and the greatest of monthly maximums are the period's; an average of monthly averages is the period's
 * as long as every month weighs the same. A median of monthly medians is not the period's median.
 */
export const FORWARD_AGGREGATIONS = [
  "avg",
  "sum",
  "min",
  "max",
] as const satisfies readonly AggregationType[];
export type ForwardAggregation = (typeof FORWARD_AGGREGATIONS)[number];

/** What `interval` asks for: the service's buckets, or one forward period made from monthly answers. */
export type ForecastPeriod =
  { kind: "bucket"; interval: ForecastInterval } | { kind: "forward"; name: ForwardPeriod; months: number };

const isForwardPeriod = (choice: string): choice is ForwardPeriod => choice in FORWARD_PERIOD_MONTHS;

export function readForecastPeriod(value: unknown): ForecastPeriod {
  const choice = readChoice(value, "interval", [...forecastIntervalValues, ...FORWARD_PERIODS]);
  return isForwardPeriod(choice)
    ? { kind: "forward", name: choice, months: FORWARD_PERIOD_MONTHS[choice] }
    : { kind: "bucket", interval: choice };
}

/** A forward period's aggregation, or #VALUE! saying why a median cannot be made and what to ask instead. */
export function forwardAggregation(aggregation: AggregationType, period: ForwardPeriod): ForwardAggregation {
  const allowed = FORWARD_AGGREGATIONS.find((candidate) => candidate === aggregation);
  if (allowed) return allowed;
  throw new ArgumentError(
    `aggregation: ${aggregation} cannot be made for ${period}: the period is made from the service's monthly ` +
      `values, and the ${aggregation} of monthly ${aggregation}s is not the period's. Use ` +
      `${FORWARD_AGGREGATIONS.join(", ")}, or interval "year", whose ${aggregation} the service makes itself.`,
  );
}

/** Start and end narrow the service's window; a forward period runs from the current month, so it takes neither. */
export function refuseDatesWithForwardPeriod(
  period: ForwardPeriod,
  start: string | undefined,
  end: string | undefined,
): void {
  const given = start !== undefined ? "start" : end !== undefined ? "end" : undefined;
  if (given === undefined) return;
  throw new ArgumentError(
    `${given}: ${period} runs from this month's first day and takes no start or end; leave them empty, or give ` +
      `interval one of ${forecastIntervalValues.join(", ")} with the dates.`,
  );
}
