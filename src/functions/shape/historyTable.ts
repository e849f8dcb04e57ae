/**
 * RENT.HISTORY's table: export rows per property and day turned into one row per property and period (day,
 * week, month, quarter), each field aggregated over the period's days.
 */
import type { components } from "../../api/schema";
import type { HistoryRow, HistoryRows } from "../../data/history/historyExports";
import { isoOfDay, type DayRange } from "../../data/history/historyDays";
import { HISTORY_KEY_COLUMNS, LONG_DATE_COLUMN } from "./historyLayout";

type ExportPropertyRow = components["schemas"]["ExportPropertyRow"];

/**
 * The property export's columns a history can show (the contract's ExportPropertyRow without the day and the
 * property, which every row carries as `date` and `id`). The type below fails when the contract gains one.
 */
export const HISTORY_FIELDS = [
  "property_name",
  "msa_name",
  "market_name",
  "submarket_name",
  "address",
  "city",
  "state",
  "zip",
  "latitude",
  "longitude",
  "unified_status",
  "property_class",
  "unit_count",
  "year_built",
  "avg_rent",
  "avg_rent_psf",
  "avg_ner",
  "avg_ner_psf",
  "all_in_rent",
  "all_in_rent_psf",
  "all_in_ner",
  "all_in_ner_psf",
  "concession_pct",
  "exposure_pct",
  "advertised_occupancy_pct",
  "leased_pct",
  "leases_last_30d",
  "applications_last_7d",
] as const satisfies readonly (keyof ExportPropertyRow)[];

type Unlisted = Exclude<
  keyof ExportPropertyRow,
  (typeof HISTORY_FIELDS)[number] | "report_generation_date" | "id"
>;
// Every column of the export is offered: a column the contract adds and this list lacks stops the type check.
const everyColumnListed: Unlisted extends never ? true : never = true;
void everyColumnListed;

export const INTERVALS = ["day", "week", "month", "quarter"] as const;
export type Interval = (typeof INTERVALS)[number];
/** A history's period when a formula names none. */
export const DEFAULT_INTERVAL: Interval = "day";

export const AGGREGATIONS = ["last", "first", "average", "min", "max", "sum"] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
/** How a period sums up its days when a formula names no way. */
export const DEFAULT_AGGREGATION: Aggregation = "last";

/** 1970-01-01, day 0, was a Thursday: Monday starts ISO weeks. */
const weekStart = (day: number) => day - ((day + 3) % 7);

function monthStart(day: number, months: number): number {
  const date = new Date(day * 86_400_000);
  const month = date.getUTCMonth() - (date.getUTCMonth() % months);
  return Math.floor(Date.UTC(date.getUTCFullYear(), month, 1) / 86_400_000);
}

/** The period a day belongs to, by its first day. */
function periodStart(day: number, interval: Interval): number {
  switch (interval) {
    case "day":
      return day;
    case "week":
      return weekStart(day);
    case "month":
      return monthStart(day, 1);
    case "quarter":
      return monthStart(day, 3);
  }
}

/** The range's periods in order, each clipped to the range. */
export function periodsOf(range: DayRange, interval: Interval): DayRange[] {
  const periods: DayRange[] = [];
  for (let day = range.first; day <= range.last; day++) {
    const current = periods[periods.length - 1];
    if (current && periodStart(day, interval) === periodStart(current.first, interval)) current.last = day;
    else periods.push({ first: day, last: day });
  }
  return periods;
}

const present = (value: unknown) => value !== null && value !== undefined && value !== "";

/** A field over a period's days: numbers by the aggregation, anything else (names, classes) by last or first. */
export function aggregate(values: readonly unknown[], aggregation: Aggregation): unknown {
  const seen = values.filter(present);
  if (seen.length === 0) return null;
  const numbers = seen.filter((value): value is number => typeof value === "number");
  if (aggregation === "first") return seen[0];
  if (aggregation === "last" || numbers.length !== seen.length) return seen[seen.length - 1];
  switch (aggregation) {
    case "average":
      return numbers.reduce((sum, value) => sum + value, 0) / numbers.length;
    case "min":
      return Math.min(...numbers);
    case "max":
      return Math.max(...numbers);
    case "sum":
      return numbers.reduce((sum, value) => sum + value, 0);
  }
}

/**
 * `date | id | fields...`: per property (in the order asked), one row per period, dated by the period's last
 * day within the range (as BDH dates a period by its end).
 */
export function historyTable(
  rows: HistoryRows,
  range: DayRange,
  fields: readonly string[],
  interval: Interval,
  aggregation: Aggregation,
): { columns: string[]; rows: unknown[][] } {
  const periods = periodsOf(range, interval);
  const table: unknown[][] = [];
  for (const [id, days] of rows) {
    for (const period of periods) {
      const inPeriod = days.slice(period.first - range.first, period.last - range.first + 1);
      const values = fields.map((field) =>
        aggregate(
          inPeriod.map((row: HistoryRow | null) => row?.[field]),
          aggregation,
        ),
      );
      table.push([isoOfDay(period.last), id, ...values]);
    }
  }
  return { columns: [LONG_DATE_COLUMN, ...HISTORY_KEY_COLUMNS.HISTORY, ...fields], rows: table };
}
