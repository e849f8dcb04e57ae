/**
 * RENT.FLOORPLANHISTORY's table: a comp set's floor plans by collection day turned into one row per plan and
 * period (day, week, month, quarter), each figure aggregated over the period's days, as RENT.HISTORY does.
 */
import type { CompSetDays, PlanDay } from "../../data/history/compSetHistory";
import { dayOfIso, isoOfDay, type DayRange } from "../../data/history/historyDays";
import { aggregate, periodsOf, type Aggregation, type Interval } from "./historyTable";
import { HISTORY_KEY_COLUMNS, LONG_DATE_COLUMN } from "./historyLayout";

const IDENTITY = HISTORY_KEY_COLUMNS.FLOORPLANHISTORY;

const planKey = (plan: PlanDay) => `${String(plan.property_id)}|${String(plan.floor_plan)}`;

/** The days with plans, first and last; undefined when the service had none in the range. */
export function daysReturned(days: CompSetDays): { first: string; last: string } | undefined {
  const withPlans = [...days].filter(([, plans]) => plans.length > 0).map(([iso]) => iso);
  if (withPlans.length === 0) return undefined;
  return { first: withPlans[0] as string, last: withPlans[withPlans.length - 1] as string };
}

/**
 * `date | property_id | property_name | floor_plan | bedroom_count | bathroom_count | figures...`: per plan
 * (by property, then plan name), one row per period, dated by the period's last day within the range. When the
 * service returned a shorter range than asked, the date header says which ("date (2026-08-27 to 2026-11-01 of
 * 2025-11-01 to 2026-11-01 asked)"), so the missing months are not read as flat; `shorter` is that note alone,
 * for the wide layout's header.
 */
export function compSetHistoryTable(
  days: CompSetDays,
  range: DayRange,
  figures: readonly string[],
  interval: Interval,
  aggregation: Aggregation,
): { columns: string[]; rows: unknown[][]; shorter?: string } {
  const plans = new Map<string, PlanDay>();
  const byPlanAndDay = new Map<string, PlanDay>();
  for (const [iso, list] of days)
    for (const plan of list) {
      plans.set(planKey(plan), plan);
      byPlanAndDay.set(`${planKey(plan)}|${iso}`, plan);
    }
  const ordered = [...plans.values()].sort(
    (a, b) =>
      Number(a.property_id) - Number(b.property_id) ||
      String(a.floor_plan).localeCompare(String(b.floor_plan)),
  );
  const rows: unknown[][] = [];
  for (const plan of ordered)
    for (const period of periodsOf(range, interval)) {
      const inPeriod = Array.from({ length: period.last - period.first + 1 }, (_, index) =>
        byPlanAndDay.get(`${planKey(plan)}|${isoOfDay(period.first + index)}`),
      );
      rows.push([
        isoOfDay(period.last),
        ...IDENTITY.map((name) => plan[name]),
        ...figures.map((figure) =>
          aggregate(
            inPeriod.map((day) => day?.[figure]),
            aggregation,
          ),
        ),
      ]);
    }
  const returned = daysReturned(days);
  const [from, to] = [isoOfDay(range.first), isoOfDay(range.last)];
  const shorter =
    returned && (dayOfIso(returned.first) > range.first || dayOfIso(returned.last) < range.last);
  if (!shorter) return { columns: [LONG_DATE_COLUMN, ...IDENTITY, ...figures], rows };
  const note = `${returned.first} to ${returned.last} of ${from} to ${to} asked`;
  return { columns: [`${LONG_DATE_COLUMN} (${note})`, ...IDENTITY, ...figures], rows, shorter: note };
}
