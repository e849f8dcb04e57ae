import type { components } from "../../src/api/schema";
import type { Dataset } from "./dataset";
import { feesOf, requiredMonthlyFees } from "./fees";
import type { PropertyCore } from "./properties";
import { isoDate, rentFactorOn } from "./propertyRecord";
import { round } from "./random";
import { listedUnits, unitsOfProperty, type FloorPlanSpec, type ListedUnit } from "./units";
import { inSentScale } from "../contract/sentScale";
import type { ShapeVariant } from "../variant";

/**
 * One floor plan on one collection day: the contract's floor plan without its over-time series (the report adds
 * them over a range of these rows), with the day it describes; the sandbox always knows a plan's size and mix.
 * Its percents are fractions (the sandbox's truth); the report writes them as the contract's `x-sent-as` says.
 */
export type FloorPlanRow = Omit<
  components["schemas"]["FloorPlan"],
  "asking_rent_over_time" | "net_effective_rent_over_time"
> & { collected_at: string; sqft: number; unit_mix_percent: number };

/** Days the week-over-week change columns look back. */
const CHANGE_LOOKBACK_DAYS = 7;

function average(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** A plan's asking rent on a day: its listed units' average, or the plan's list rent when none is listed. */
function planRent(
  dataset: Dataset,
  property: PropertyCore,
  plan: FloorPlanSpec,
  listed: ListedUnit[],
  day: number,
  today: number,
): number {
  const units = listed.filter((unit) => unit.spec.plan === plan);
  return (
    average(units.map((unit) => unit.rent)) ?? plan.baseRent * rentFactorOn(dataset, property, day, today)
  );
}

/** A property's listed units on a day (units.ts's `listedUnits`, perhaps kept from an earlier call). */
export type ListingsOn = (property: PropertyCore, day: number) => ListedUnit[];

/**
 * Listed units for a report that goes over its days oldest first: each day's listing is also the lookback of the
 * day a week later, so it is made once instead of twice (the floor plan report's main cost over a year of days).
 * Only the lookback's days are kept.
 */
export function listingsOverDays(dataset: Dataset, today: number): ListingsOn {
  const kept = new Map<number, Map<number, ListedUnit[]>>();
  return (property, day) => {
    let byDay = kept.get(property.id);
    if (!byDay) kept.set(property.id, (byDay = new Map()));
    let listed = byDay.get(day);
    if (!listed) {
      listed = listedUnits(dataset, property, day, today);
      byDay.set(day, listed);
      for (const earlier of byDay.keys()) if (earlier < day - CHANGE_LOOKBACK_DAYS) byDay.delete(earlier);
    }
    return listed;
  };
}

/**
 * One row per floor plan of a property on a collection day. With an availability filter the
 * figures cover the matching available units only, and plans without one are left out.
 */
export function floorPlanRows(
  dataset: Dataset,
  property: PropertyCore,
  subject: boolean,
  day: number,
  today: number,
  availability?: (dateAvailable: string) => boolean,
  listedOn: ListingsOn = (onProperty, onDay) => listedUnits(dataset, onProperty, onDay, today),
): FloorPlanRow[] {
  const { plans } = unitsOfProperty(dataset, property);
  const totalUnits = plans.reduce((sum, plan) => sum + plan.unitCount, 0);
  const fees = requiredMonthlyFees(feesOf(dataset, property));
  const listed = listedOn(property, day);
  const previousDay = day - CHANGE_LOOKBACK_DAYS;
  const listedBefore = listedOn(property, previousDay);
  const rows: FloorPlanRow[] = [];
  for (const plan of plans) {
    const units = listed.filter(
      (unit) => unit.spec.plan === plan && (!availability || availability(unit.dateAvailable)),
    );
    if (availability && units.length === 0) continue;
    const rent =
      average(units.map((unit) => unit.rent)) ?? plan.baseRent * rentFactorOn(dataset, property, day, today);
    const previous = planRent(dataset, property, plan, listedBefore, previousDay, today);
    const concession = property.concessionPercent;
    const ner = rent * (1 - concession);
    const previousNer = previous * (1 - concession);
    rows.push({
      property_id: property.id,
      property_name: property.name,
      subject_property: subject,
      name: plan.name,
      collected_at: isoDate(day),
      bedroom_count: plan.bedrooms,
      bathroom_count: plan.bathrooms,
      asking_rent: round(rent, 2),
      asking_rent_change: round(rent - previous, 2),
      asking_rent_change_percent: round((rent - previous) / previous, 4),
      asking_rent_per_sq_ft: round(rent / plan.sqFt, 4),
      net_effective_rent: round(ner, 2),
      net_effective_rent_change: round(ner - previousNer, 2),
      net_effective_rent_change_percent: round((ner - previousNer) / previousNer, 4),
      net_effective_rent_per_sq_ft: round(ner / plan.sqFt, 4),
      all_in_rent: round(rent + fees, 2),
      all_in_rent_per_sqft: round((rent + fees) / plan.sqFt, 4),
      all_in_ner: round(ner + fees, 2),
      all_in_ner_per_sqft: round((ner + fees) / plan.sqFt, 4),
      sqft: plan.sqFt,
      days_on_market:
        units.length === 0 ? null : round(average(units.map((unit) => unit.daysOnMarket)) ?? 0, 1),
      unit_count: plan.unitCount,
      available_unit_count: units.length,
      unit_mix_est: plan.unitCount,
      unit_mix_percent: round(plan.unitCount / totalUnits, 4),
    });
  }
  return rows;
}

/** One `{collected_at, value}` point of a plan's history. */
interface HistoryPoint {
  collected_at: string;
  value: number | null;
}

/** A plan as the live service lists it: its latest day's figures plus its rent history (api-notes). */
export type FloorPlanEntry = Omit<FloorPlanRow, "collected_at"> & {
  asking_rent_over_time: HistoryPoint[];
  net_effective_rent_over_time: HistoryPoint[];
};

/** A history point's date: the day, or the end of that day in UTC as the vendor's example writes it. */
function pointDate(day: string, dates: ShapeVariant["historyPointDates"]): string {
  return dates === "day" ? day : `${day}T23:59:59.999Z`;
}

/**
 * Rows of every collection day (oldest first) to one entry per plan: the latest row plus the history arrays, its
 * percents written as the contract says (`*_change_percent` in points, `unit_mix_percent` a fraction).
 */
export function planEntries(rows: FloorPlanRow[], shape: ShapeVariant): FloorPlanEntry[] {
  const byPlan = new Map<string, FloorPlanRow[]>();
  for (const row of rows) {
    const key = `${row.property_id}|${row.name}`;
    byPlan.set(key, [...(byPlan.get(key) ?? []), row]);
  }
  const seriesOf = (history: FloorPlanRow[], pick: (row: FloorPlanRow) => number | null) =>
    history.map((row) => ({
      collected_at: pointDate(row.collected_at, shape.historyPointDates),
      value: pick(row),
    }));
  return [...byPlan.values()].map((history) => {
    const { collected_at: _day, ...latest } = history[history.length - 1] as FloorPlanRow;
    return {
      ...inSentScale("FloorPlan", latest, shape.percentScale),
      asking_rent_over_time: seriesOf(history, (row) => row.asking_rent),
      net_effective_rent_over_time: seriesOf(history, (row) => row.net_effective_rent),
    };
  });
}

function meanOf<T>(rows: T[], pick: (row: T) => number | null, decimals = 2): number | null {
  const values = rows.map(pick).filter((value): value is number => value !== null);
  return values.length === 0
    ? null
    : round(values.reduce((sum, value) => sum + value, 0) / values.length, decimals);
}

/** The bucket's history: on each collection day, the mean of its plans' values. */
function meanSeries(plans: FloorPlanEntry[], pick: (plan: FloorPlanEntry) => HistoryPoint[]): HistoryPoint[] {
  const byDate = new Map<string, (number | null)[]>();
  for (const plan of plans) {
    for (const point of pick(plan)) {
      const values = byDate.get(point.collected_at);
      if (values) values.push(point.value);
      else byDate.set(point.collected_at, [point.value]);
    }
  }
  return [...byDate].map(([collectedAt, values]) => ({
    collected_at: collectedAt,
    value: meanOf(values, (value) => value),
  }));
}

/**
 * A bucket's `floor_plan_summary`, shaped like a plan (api-notes third pass): the same fields, its own `*_over_time`
 * arrays and the property of its first plan; its figures averaged (counts summed) over the bucket's plans.
 */
function summarize(plans: FloorPlanEntry[], label: string): FloorPlanEntry {
  const first = plans[0] as FloorPlanEntry;
  const sum = (pick: (plan: FloorPlanEntry) => number) =>
    plans.reduce((total, plan) => total + pick(plan), 0);
  const mean = (pick: (plan: FloorPlanEntry) => number | null, decimals = 2) => meanOf(plans, pick, decimals);
  return {
    property_id: first.property_id,
    property_name: first.property_name,
    subject_property: first.subject_property,
    name: label,
    bedroom_count: first.bedroom_count,
    bathroom_count: mean((plan) => plan.bathroom_count, 1) ?? first.bathroom_count,
    asking_rent: mean((plan) => plan.asking_rent),
    asking_rent_change: mean((plan) => plan.asking_rent_change),
    asking_rent_change_percent: mean((plan) => plan.asking_rent_change_percent, 4),
    asking_rent_per_sq_ft: mean((plan) => plan.asking_rent_per_sq_ft, 4),
    net_effective_rent: mean((plan) => plan.net_effective_rent),
    net_effective_rent_change: mean((plan) => plan.net_effective_rent_change),
    net_effective_rent_change_percent: mean((plan) => plan.net_effective_rent_change_percent, 4),
    net_effective_rent_per_sq_ft: mean((plan) => plan.net_effective_rent_per_sq_ft, 4),
    all_in_rent: mean((plan) => plan.all_in_rent),
    all_in_rent_per_sqft: mean((plan) => plan.all_in_rent_per_sqft, 4),
    all_in_ner: mean((plan) => plan.all_in_ner),
    all_in_ner_per_sqft: mean((plan) => plan.all_in_ner_per_sqft, 4),
    sqft: mean((plan) => plan.sqft, 0) ?? first.sqft,
    days_on_market: mean((plan) => plan.days_on_market, 1),
    unit_count: sum((plan) => plan.unit_count),
    available_unit_count: sum((plan) => plan.available_unit_count),
    unit_mix_est: sum((plan) => plan.unit_mix_est),
    unit_mix_percent: mean((plan) => plan.unit_mix_percent, 4) ?? first.unit_mix_percent,
    asking_rent_over_time: meanSeries(plans, (plan) => plan.asking_rent_over_time),
    net_effective_rent_over_time: meanSeries(plans, (plan) => plan.net_effective_rent_over_time),
  };
}

/**
 * Plans grouped as the endpoint returns them, fewest bedrooms first: by bedroom and bathroom count
 * (`floor_plans_by_bed_bath`) or by bedroom count only (`floor_plans_by_bed`), each bucket with its summary.
 */
export function bucketPlans(plans: FloorPlanEntry[], buckets: ShapeVariant["floorPlanBuckets"]) {
  const byBath = buckets === "floor_plans_by_bed_bath";
  const groups = new Map<string, FloorPlanEntry[]>();
  for (const plan of plans) {
    const key = byBath ? `${plan.bedroom_count}x${plan.bathroom_count}` : String(plan.bedroom_count);
    groups.set(key, [...(groups.get(key) ?? []), plan]);
  }
  return [...groups.values()]
    .map((members) => {
      const first = members[0] as FloorPlanEntry;
      const label = byBath
        ? `${first.bedroom_count} bed / ${first.bathroom_count} bath`
        : `${first.bedroom_count} bed`;
      return {
        bedroom_count: first.bedroom_count,
        ...(byBath ? { bathroom_count: first.bathroom_count } : {}),
        floor_plans: members,
        floor_plan_summary: summarize(members, label),
      };
    })
    .sort((a, b) => a.bedroom_count - b.bedroom_count || (a.bathroom_count ?? 0) - (b.bathroom_count ?? 0));
}
