import type { components } from "../../src/api/schema";
import { dayNumber, isoDate } from "./propertyRecord";
import type { Series } from "./forecastModel";

export type Interval = components["schemas"]["ForecastInterval"];
export type AggregationType = components["schemas"]["AggregationType"];

export interface Aggregation {
  name: string;
  field: string;
  aggregation_type: AggregationType;
}

/** Days of shift from an offset such as `0d`, `15d` or `-1d`. */
export function offsetDays(offset: string): number {
  return Number(offset.replace(/d$/, ""));
}

/** Start of the calendar bucket that holds a date, after shifting bucket boundaries by `offset` days. */
export function bucketStart(date: string, interval: Interval, offset: number): string {
  const shifted = isoDate(dayNumber(date) - offset);
  const year = shifted.slice(0, 4);
  const month = Number(shifted.slice(5, 7));
  const start =
    interval === "month"
      ? `${shifted.slice(0, 7)}-01`
      : interval === "quarter"
        ? `${year}-${String(month - ((month - 1) % 3)).padStart(2, "0")}-01`
        : `${year}-01-01`;
  return isoDate(dayNumber(start) + offset);
}

export function aggregate(values: number[], type: AggregationType): number | null {
  if (values.length === 0) return null;
  switch (type) {
    case "sum":
      return values.reduce((total, value) => total + value, 0);
    case "avg":
      return values.reduce((total, value) => total + value, 0) / values.length;
    case "max":
      return Math.max(...values);
    case "min":
      return Math.min(...values);
    case "median": {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1
        ? (sorted[middle] ?? null)
        : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
    }
  }
}

/**
 * Groups the in-window model points into buckets and aggregates each requested series. Buckets
 * appear in date order; a bucket whose values are all null gives null.
 */
export function bucketize(
  pointDates: string[],
  inWindow: (date: string) => boolean,
  series: Map<string, Series>,
  aggregations: Aggregation[],
  interval: Interval,
  offset: number,
  round: (value: number | null) => number | null,
): { date: string; values: Record<string, number | null> }[] {
  const buckets = new Map<string, number[]>();
  pointDates.forEach((date, index) => {
    if (!inWindow(date)) return;
    const key = bucketStart(date, interval, offset);
    const members = buckets.get(key);
    if (members) members.push(index);
    else buckets.set(key, [index]);
  });
  return [...buckets.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, indexes]) => ({
      date,
      values: Object.fromEntries(
        aggregations.map((aggregation) => {
          const values = series.get(aggregation.name) ?? [];
          const present = indexes
            .map((index) => values[index])
            .filter((value): value is number => typeof value === "number");
          return [aggregation.name, round(aggregate(present, aggregation.aggregation_type))];
        }),
      ),
    }));
}
