import type { Dataset } from "./dataset";
import { feesOf, requiredMonthlyFees } from "./fees";
import type { PropertyCore } from "./properties";
import { isoDate, rentFactorOn } from "./propertyRecord";
import { round } from "./random";
import { listedUnits, unitsOfProperty, type FloorPlanSpec, type ListedUnit } from "./units";

export interface FloorPlanRow {
  property_id: number;
  property_name: string;
  subject_property: boolean;
  name: string;
  collected_at: string;
  bedroom_count: number;
  bathroom_count: number;
  asking_rent: number | null;
  asking_rent_change: number | null;
  asking_rent_change_percent: number | null;
  asking_rent_per_sq_ft: number | null;
  net_effective_rent: number | null;
  net_effective_rent_change: number | null;
  net_effective_rent_change_percent: number | null;
  net_effective_rent_per_sq_ft: number | null;
  all_in_rent: number | null;
  all_in_rent_per_sqft: number | null;
  all_in_ner: number | null;
  all_in_ner_per_sqft: number | null;
  sqft: number;
  days_on_market: number | null;
  unit_count: number;
  available_unit_count: number;
  unit_mix_est: number;
  unit_mix_percent: number;
}

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
): FloorPlanRow[] {
  const { plans } = unitsOfProperty(dataset, property);
  const totalUnits = plans.reduce((sum, plan) => sum + plan.unitCount, 0);
  const fees = requiredMonthlyFees(feesOf(dataset, property));
  const listed = listedUnits(dataset, property, day, today);
  const previousDay = day - CHANGE_LOOKBACK_DAYS;
  const listedBefore = listedUnits(dataset, property, previousDay, today);
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
      asking_rent_change_percent: round(((rent - previous) / previous) * 100, 2),
      asking_rent_per_sq_ft: round(rent / plan.sqFt, 4),
      net_effective_rent: round(ner, 2),
      net_effective_rent_change: round(ner - previousNer, 2),
      net_effective_rent_change_percent: round(((ner - previousNer) / previousNer) * 100, 2),
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
      unit_mix_percent: round((plan.unitCount / totalUnits) * 100, 2),
    });
  }
  return rows;
}

/** Rows grouped by bedroom and bathroom count, fewest bedrooms first, as the endpoint returns them. */
export function groupByBedBath(rows: FloorPlanRow[]) {
  const groups = new Map<string, FloorPlanRow[]>();
  for (const row of rows) {
    const key = `${row.bedroom_count}x${row.bathroom_count}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()]
    .map((plans) => ({
      bedroom_count: plans[0]?.bedroom_count ?? 0,
      bathroom_count: plans[0]?.bathroom_count ?? 0,
      floor_plans: plans,
    }))
    .sort((a, b) => a.bedroom_count - b.bedroom_count || a.bathroom_count - b.bathroom_count);
}

function meanOf(rows: FloorPlanRow[], pick: (row: FloorPlanRow) => number | null): number | null {
  const values = rows.map(pick).filter((value): value is number => value !== null);
  return values.length === 0 ? null : round(values.reduce((sum, value) => sum + value, 0) / values.length, 2);
}

/** The floor_plan_summary of one collection day's rows. */
export function summarize(rows: FloorPlanRow[]) {
  return {
    floor_plan_count: rows.length,
    unit_count: rows.reduce((sum, row) => sum + row.unit_count, 0),
    available_unit_count: rows.reduce((sum, row) => sum + row.available_unit_count, 0),
    asking_rent_avg: meanOf(rows, (row) => row.asking_rent),
    net_effective_rent_avg: meanOf(rows, (row) => row.net_effective_rent),
    all_in_rent_avg: meanOf(rows, (row) => row.all_in_rent),
    all_in_ner_avg: meanOf(rows, (row) => row.all_in_ner),
  };
}
