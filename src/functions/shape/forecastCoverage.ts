/**
 * Which months a forecast row covers. The service's answer holds monthly model points on the first day of each
 * month of its window, which runs `x-window-months` (FORECAST_WINDOW_MONTHS) from the current month's first day,
 * narrowed by start and end (openapi.yaml, getPropertyForecasts and ForecastFilters); a quarter or a year holds
 * the points that fall in it. So the window cuts the first and the last bucket short (a year asked in November
 * holds November and December), and a row says so: the first and last day it covers and how many of its months.
 * A forward period is made here from the monthly rows, and covers the months it was made from.
 */
import { ApiError } from "../../api/errors";
import { FORECAST_WINDOW_MONTHS } from "../../api/contractLimits";
import type { ForecastSeries } from "../../data/forecastSeries";
import { isoDateToSerial } from "../../tables/excelDates";
import type { HeaderChoice } from "../args/headers";
import type { ForwardAggregation } from "../args/forecastPeriods";
import { resultCell, type ResultCell } from "./dataTypes";
import { aggregate } from "./historyTable";

/** Months counted from year 0: January 2026 is 2026 * 12. */
type MonthNumber = number;

export interface Coverage {
  first: MonthNumber;
  last: MonthNumber;
  /** The months the row's period has: 3 for a quarter, 12 for a year or next_12_months. */
  of: number;
}

const monthOfIso = (iso: string): MonthNumber => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1;

const isoOfMonth = (month: MonthNumber): string =>
  `${String(Math.floor(month / 12)).padStart(4, "0")}-${String((month % 12) + 1).padStart(2, "0")}-01`;

/**
 * The months an answer's points fall on. The window starts in the month the answer arrived (as the forecast's
 * cache key reckons it, in UTC); a point is a month's first day, so a start after the 1st begins at the next month.
 */
export function answeredMonths(
  storedAt: number,
  start: string | undefined,
  end: string | undefined,
): { first: MonthNumber; last: MonthNumber } {
  const arrived = new Date(storedAt);
  const windowFirst = arrived.getUTCFullYear() * 12 + arrived.getUTCMonth();
  const fromStart = start === undefined ? windowFirst : monthOfIso(start) + (start.endsWith("-01") ? 0 : 1);
  const toEnd = end === undefined ? Number.POSITIVE_INFINITY : monthOfIso(end);
  return {
    first: Math.max(windowFirst, fromStart),
    last: Math.min(windowFirst + FORECAST_WINDOW_MONTHS - 1, toEnd),
  };
}

/** The months of the bucket starting on `date` (`of` months long) that the answer has points for. */
export function bucketCoverage(
  date: string,
  of: number,
  answered: { first: MonthNumber; last: MonthNumber },
): Coverage {
  const bucket = monthOfIso(date);
  const first = Math.max(bucket, answered.first);
  const last = Math.min(bucket + of - 1, answered.last);
  if (first > last) {
    throw new ApiError(
      "unexpected_answer",
      `The forecast has a row for ${date}, outside the months ${isoOfMonth(answered.first)} to ` +
        `${isoOfMonth(answered.last)} its window covers.`,
    );
  }
  return { first, last, of };
}

/**
 * One row for a forward period from the monthly rows: its first `months` months (from the first row, the window's
 * first month), each series combined by its aggregation as the service combines a bucket's points (nulls left
 * out, null when none is left).
 */
export function forwardPeriodRow(
  monthly: ForecastSeries,
  months: number,
  series: readonly { name: string; way: ForwardAggregation }[],
): { row: ForecastSeries[number]; coverage: Coverage } {
  const [head] = monthly;
  if (!head) throw new ApiError("not_found", "The forecast has no months.");
  const first = monthOfIso(head.date);
  const inPeriod = monthly.filter((row) => monthOfIso(row.date) < first + months);
  const values = Object.fromEntries(
    series.map(({ name, way }) => {
      const combined = aggregate(
        inPeriod.map((row) => row.values[name]),
        way === "avg" ? "average" : way,
      );
      return [name, typeof combined === "number" ? combined : null];
    }),
  );
  const last = Math.max(...inPeriod.map((row) => monthOfIso(row.date)));
  return { row: { date: head.date, values }, coverage: { first, last, of: months } };
}

/** The columns a row's coverage adds, by the `headers` choice. */
export function coverageHeaders(choice: HeaderChoice, of: number): string[] {
  return choice === "names"
    ? ["Covers from", "Covers to", `Months covered (of ${of})`]
    : ["covers_from", "covers_to", "months_covered"];
}

/** The first day of the first month covered, the last day of the last, as Excel dates, and the months covered. */
export function coverageCells(coverage: Coverage): ResultCell[] {
  const from = isoDateToSerial(isoOfMonth(coverage.first)) as number;
  const to = (isoDateToSerial(isoOfMonth(coverage.last + 1)) as number) - 1;
  return [
    resultCell(from, "date"),
    resultCell(to, "date"),
    resultCell(coverage.last - coverage.first + 1, "integer"),
  ];
}
