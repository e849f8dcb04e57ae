import type { components } from "../../src/api/schema";
import type { Dataset } from "./dataset";
import { isoDate, MS_PER_DAY } from "./propertyRecord";
import { hashSeed, round, SALT } from "./random";
import { amenityNamesOf, type ListedUnit } from "./units";
import type { ShapeVariant } from "../variant";

/** How a sandbox variant writes a unit's texts: its rent changes and its concessions' `updated_at_formatted`. */
export interface UnitTexts {
  rentChange(dollars: number): string;
  updatedAt(at: Date): string;
}

/** "Mar 14, 2026"; one formatter for all calls, since building one per call dominated unit exports. */
const US_SHORT_DATE = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** "8 hours ago": how long before `now` an instant was, in its largest whole unit, as the vendor's example. */
function timeAgo(at: Date, now: number): string {
  const minutes = Math.max(0, Math.floor((now - at.getTime()) / 60_000));
  const [count, unit] =
    minutes < 60
      ? [minutes, "minute"]
      : minutes < 1440
        ? [Math.floor(minutes / 60), "hour"]
        : [Math.floor(minutes / 1440), "day"];
  return `${count} ${unit}${count === 1 ? "" : "s"} ago`;
}

/**
 * The variant's unit texts: signed amounts ("+40.00") or dollars ("$10", "-$10"); dates ("Mar 14, 2026") or phrases
 * relative to the sandbox clock's `now` ("8 hours ago"), both as api-notes record them.
 */
export function unitTextsOf(shape: ShapeVariant, now: number): UnitTexts {
  return {
    rentChange: (dollars) =>
      shape.rentChangeText === "dollars"
        ? `${dollars < 0 ? "-" : ""}$${Math.abs(Math.round(dollars))}`
        : `${dollars >= 0 ? "+" : "-"}${Math.abs(dollars).toFixed(2)}`,
    updatedAt: (at) =>
      shape.updatedAtFormatted === "relative" ? timeAgo(at, now) : US_SHORT_DATE.format(at),
  };
}

/** The display text of a property's current concession, or null without one. */
export function concessionText(unit: ListedUnit): string | null {
  const { concessionPercent } = unit.property;
  if (concessionPercent === 0) return null;
  const weeksFree = Math.max(1, Math.round(concessionPercent * 52));
  return `Up to ${weeksFree} week${weeksFree === 1 ? "" : "s"} free on select units`;
}

/** The concession object of the spec for a property's current offer, or null without one. */
export function concessionsOf(unit: ListedUnit, texts: UnitTexts) {
  const { property } = unit;
  const displayText = concessionText(unit);
  if (displayText === null) return null;
  const weeksFree = Math.max(1, Math.round(property.concessionPercent * 52));
  const expiresOn = isoDate(unit.day + 30 - (property.id % 20));
  const updatedAt = new Date((unit.day - (property.id % 5)) * MS_PER_DAY + 15 * 3_600_000);
  return {
    id: property.id * 10 + 1,
    property_id: property.id,
    expires_at: `${expiresOn}T23:59:59.000Z`,
    updated_at: updatedAt.toISOString(),
    updated_at_formatted: texts.updatedAt(updatedAt),
    display_text: displayText,
    rent_concessions: [
      {
        display_text: displayText,
        restrictions: ["12+ month lease", "Move in within 30 days"],
        expires_on_date: expiresOn,
        subject: "rent",
        type_value: weeksFree,
        details: `${weeksFree} weeks free spread over a 12-month lease`,
      },
    ],
    non_rent_concessions:
      property.id % 3 === 0
        ? [
            {
              display_text: "Waived application fee",
              restrictions: [],
              expires_on_date: expiresOn,
              subject: "fees",
              type_value: 0,
              details: null,
            },
          ]
        : [],
  };
}

/** One unit as the units endpoint returns it; trucomp figures compare with the subject's same-bedroom units. */
export function unitEnvelope(
  dataset: Dataset,
  unit: ListedUnit,
  subject: boolean,
  subjectAverages: Map<number, { rent: number; sqFt: number }>,
  texts: UnitTexts,
) {
  const { property, spec } = unit;
  const changeRoll = hashSeed(dataset.seed, SALT.units, property.id, Number(spec.key), unit.day) % 100;
  const changes = changeRoll < 50 ? 0 : changeRoll < 85 ? 1 : 2;
  const lastChange = changes === 0 ? null : ((changeRoll % 9) - 4) * 10;
  const reference = subject ? undefined : subjectAverages.get(spec.plan.bedrooms);
  const applied = changeRoll % 7 === 0;
  // Live code found leased units (is_leased true) among the listed ones: here half of the applied units,
  // leased a few days before the day listed; their status is `Leased` (api-notes, second pass).
  const leasedDaysAgo = applied && changeRoll % 2 === 0 ? 1 + (changeRoll % 5) : undefined;
  const status: components["schemas"]["UnitStatus"] =
    leasedDaysAgo !== undefined ? "Leased" : applied ? "Applied" : "Available";
  const rentPsf = round(unit.rent / spec.sqFt, 4);
  return {
    id: `${property.id}_${spec.key}`,
    type: "unit" as const,
    attributes: {
      property_id: property.id,
      subject_property: subject,
      property_name: property.name,
      is_leased: leasedDaysAgo !== undefined,
      year_built: property.yearBuilt,
      unit_name: spec.key,
      floorplan_name: spec.plan.name,
      is_trucomp:
        !subject && reference !== undefined && Math.abs(spec.sqFt - reference.sqFt) / reference.sqFt < 0.1,
      // Live code counted these two capitalised values among the units of its comp sets.
      status,
      days_on_market: unit.daysOnMarket,
      date_available: unit.dateAvailable,
      last_rent_change_date: changes === 0 ? null : isoDate(unit.day - (changeRoll % 14)),
      date_leased: leasedDaysAgo === undefined ? null : `${isoDate(unit.day - leasedDaysAgo)}T15:00:00Z`,
      bedroom_count: spec.plan.bedrooms,
      bathroom_count: spec.plan.bathrooms,
      min_rent: unit.rent,
      sq_ft: spec.sqFt,
      avg_rent_per_sq_ft: rentPsf,
      last_rent_change: lastChange === null ? null : texts.rentChange(lastChange),
      total_30_day_rent_change: lastChange === null ? null : texts.rentChange(lastChange * changes),
      rent_changes_last_30_days: changes,
      net_effective_rent: unit.netEffectiveRent,
      net_effective_rent_per_sq_ft: round(unit.netEffectiveRent / spec.sqFt, 4),
      all_in_rent: unit.allInRent,
      all_in_rent_per_sq_ft: round(unit.allInRent / spec.sqFt, 4),
      all_in_ner: unit.allInNer,
      all_in_ner_per_sq_ft: round(unit.allInNer / spec.sqFt, 4),
      annual_rent_reduction_value: round(unit.rent * property.concessionPercent * 12, 2),
      trucomp_rent_differential: reference ? round(unit.rent - reference.rent, 2) : null,
      trucomp_sq_ft_differential: reference ? round(spec.sqFt - reference.sqFt, 1) : null,
      trucomp_rent_per_sq_ft_differential: reference
        ? round(rentPsf - reference.rent / reference.sqFt, 4)
        : null,
      concessions: concessionsOf(unit, texts),
      amenity_names: amenityNamesOf(dataset, property, spec),
    },
  };
}
