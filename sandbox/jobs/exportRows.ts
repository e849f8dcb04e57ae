import type { components } from "../../src/api/schema";
import type { Dataset } from "../data/dataset";
import { feesOf, requiredMonthlyFees } from "../data/fees";
import { floorPlanRows } from "../data/floorPlanReport";
import { MSAS } from "../data/msas";
import type { PropertyCore } from "../data/properties";
import { isoDate, rentFactorOn } from "../data/propertyRecord";
import { Random, round, SALT } from "../data/random";
import { concessionText } from "../data/unitRecord";
import { listedUnits } from "../data/units";
import { percentIn, type ShapeVariant } from "../variant";
import type { ReportType } from "./jobStore";

type PercentScale = ShapeVariant["percentScale"];

type Schemas = components["schemas"];

/** A row of an export file, typed by its report's contract schema (a column that drifts fails tsc). */
export type ExportRow =
  Schemas["ExportPropertyRow"] | Schemas["ExportUnitRow"] | Schemas["ExportFloorPlanRow"];

/** The contract schema that lists each report's columns. */
export const EXPORT_ROW_SCHEMAS: Record<ReportType, string> = {
  property: "ExportPropertyRow",
  units: "ExportUnitRow",
  floorplans: "ExportFloorPlanRow",
};

function perSqFt(value: number | null, sqFt: number): number | null {
  return value === null ? null : round(value / sqFt, 4);
}

/**
 * A property report row in the layout of a live jsonl export (api-notes, "Observed on the live service"):
 * `report_generation_date` is the day, `id` the property, `avg_*` the rents and `*_pct` the percentages,
 * decimals in the documented variant.
 */
function propertyRow(
  dataset: Dataset,
  property: PropertyCore,
  day: number,
  today: number,
  scale: PercentScale,
): Schemas["ExportPropertyRow"] {
  const rent =
    property.askingRent === null ? null : property.askingRent * rentFactorOn(dataset, property, day, today);
  const ner = rent === null ? null : rent * (1 - property.concessionPercent);
  const fees = requiredMonthlyFees(feesOf(dataset, property));
  const size = property.averageUnitSize;
  const percent = (points: number) => (rent === null ? null : percentIn(scale, points));
  const activity = Random.of(dataset.seed, SALT.record, property.id, day);
  return {
    report_generation_date: isoDate(day),
    id: property.id,
    property_name: property.name,
    msa_name: MSAS[property.msaIndex]?.name ?? "",
    market_name: dataset.boundary(property.msaId)?.shortName ?? "",
    submarket_name: dataset.boundary(property.submarketId)?.name ?? "",
    address: property.address,
    city: property.city,
    state: property.state,
    zip: property.zip,
    latitude: property.latitude,
    longitude: property.longitude,
    unified_status: property.unifiedStatus,
    property_class: property.propertyClass,
    unit_count: property.unitCount,
    year_built: property.yearBuilt,
    avg_rent: rent === null ? null : round(rent, 2),
    avg_rent_psf: perSqFt(rent, size),
    avg_ner: ner === null ? null : round(ner, 2),
    avg_ner_psf: perSqFt(ner, size),
    all_in_rent: rent === null ? null : round(rent + fees, 2),
    all_in_rent_psf: perSqFt(rent === null ? null : rent + fees, size),
    all_in_ner: ner === null ? null : round(ner + fees, 2),
    all_in_ner_psf: perSqFt(ner === null ? null : ner + fees, size),
    concession_pct: percent(property.concessionPercent * 100),
    exposure_pct: percent(property.exposurePercent),
    advertised_occupancy_pct: percent(100 - property.exposurePercent),
    leased_pct: percent(property.leasedPercent),
    leases_last_30d: rent === null ? null : activity.int(0, Math.max(1, Math.round(property.unitCount / 12))),
    applications_last_7d:
      rent === null ? null : activity.int(0, Math.max(1, Math.round(property.unitCount / 40))),
  };
}

/** The rows one property contributes to a report for one collection day. */
export function exportRowsFor(
  dataset: Dataset,
  reportType: ReportType,
  property: PropertyCore,
  day: number,
  today: number,
  scale: PercentScale,
): ExportRow[] {
  if (reportType === "property") return [propertyRow(dataset, property, day, today, scale)];
  // Floor plans and units exist only for properties that are on the market.
  if (property.askingRent === null) return [];
  if (reportType === "floorplans") {
    return floorPlanRows(dataset, property, false, day, today).map((row): Schemas["ExportFloorPlanRow"] => ({
      date: row.collected_at,
      property_id: row.property_id,
      property_name: row.property_name,
      floorplan_name: row.name,
      bedroom_count: row.bedroom_count,
      bathroom_count: row.bathroom_count,
      sq_ft: row.sqft,
      unit_count: row.unit_count,
      available_unit_count: row.available_unit_count,
      asking_rent: row.asking_rent,
      asking_rent_psf: row.asking_rent_per_sq_ft,
      net_effective_rent: row.net_effective_rent,
      net_effective_rent_psf: row.net_effective_rent_per_sq_ft,
      all_in_rent: row.all_in_rent,
      all_in_rent_psf: row.all_in_rent_per_sqft,
      all_in_ner: row.all_in_ner,
      all_in_ner_psf: row.all_in_ner_per_sqft,
      days_on_market: row.days_on_market,
    }));
  }
  return listedUnits(dataset, property, day, today).map((unit): Schemas["ExportUnitRow"] => ({
    date: isoDate(day),
    property_id: property.id,
    property_name: property.name,
    unit_id: `${property.id}_${unit.spec.key}`,
    unit_name: unit.spec.key,
    floorplan_name: unit.spec.plan.name,
    bedroom_count: unit.spec.plan.bedrooms,
    bathroom_count: unit.spec.plan.bathrooms,
    sq_ft: unit.spec.sqFt,
    status: "available",
    date_available: unit.dateAvailable,
    days_on_market: unit.daysOnMarket,
    asking_rent: unit.rent,
    asking_rent_psf: round(unit.rent / unit.spec.sqFt, 4),
    net_effective_rent: unit.netEffectiveRent,
    net_effective_rent_psf: round(unit.netEffectiveRent / unit.spec.sqFt, 4),
    all_in_rent: unit.allInRent,
    all_in_rent_psf: round(unit.allInRent / unit.spec.sqFt, 4),
    all_in_ner: unit.allInNer,
    all_in_ner_psf: round(unit.allInNer / unit.spec.sqFt, 4),
    concession_text: concessionText(unit),
  }));
}
