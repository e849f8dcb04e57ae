import type { components } from "../../src/api/schema";
import { inSentScale } from "../contract/sentScale";
import type { Dataset } from "./dataset";
import { MSAS } from "./msas";
import type { PropertyCore } from "./properties";
import { hashSeed, Random, round, SALT } from "./random";
import { OWNERSHIP_COMPANIES, OWNERSHIP_TYPES } from "./vocabulary";

export const BEDROOM_COUNTS = [0, 1, 2, 3, 4] as const;
/** Rent of a B-bedroom unit relative to the property's average asking rent. */
export const BEDROOM_RENT_RATIO = [0.72, 0.88, 1.12, 1.42, 1.75] as const;
export function rentRatio(bedrooms: number): number {
  return BEDROOM_RENT_RATIO[bedrooms] ?? 1;
}

/** Typical share of units with B bedrooms. */
const BEDROOM_MIX = [0.08, 0.44, 0.36, 0.1, 0.02] as const;

export const MS_PER_DAY = 86_400_000;

export function dayNumber(isoDate: string): number {
  return Math.floor(Date.parse(`${isoDate}T00:00:00Z`) / MS_PER_DAY);
}

const isoDates = new Map<number, string>();

/** "YYYY-MM-DD" of a day number; memoised, since exports ask for the same few hundred days per row. */
export function isoDate(day: number): string {
  let text = isoDates.get(day);
  if (text === undefined) {
    text = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    isoDates.set(day, text);
  }
  return text;
}

/**
 * How a property's rent on a past day relates to today's: last year's growth run backwards, plus a
 * small deterministic day-to-day wobble. 1 for today.
 */
export function rentFactorOn(dataset: Dataset, property: PropertyCore, day: number, today: number): number {
  if (day === today) return 1;
  const annualGrowth = 0.03 + property.growthOffset;
  const wobble = (hashSeed(dataset.seed, SALT.history, property.id, day) / 4294967296 - 0.5) * 0.01;
  return (1 + annualGrowth) ** ((day - today) / 365) * (1 + wobble);
}

/** The property record's attributes, as the contract's generated types say (a drifting field fails tsc). */
export type PropertyAttributes = components["schemas"]["PropertyAttributes"];

/** The numbered ownership slots of the record (`ownership_company_N_*`). */
const OWNERSHIP_SLOTS = [1, 2, 3, 4] as const;

export interface RecordOptions {
  /** The collection day of the record (YYYY-MM-DD). */
  collectedAt: string;
  /** Today's date; records of other days have their rents moved along the growth path. */
  today: string;
  /** Ownership and sale fields are only for the pro-plus tier. */
  includeOwnership: boolean;
  /** The variant's scale for percents whose scale the contract leaves open (default: fractions). */
  percentScale?: "fraction" | "points";
}

function money(value: number | null): number | null {
  return value === null ? null : round(value, 2);
}

/** The full property record of the spec (type `properties`), derived from the core deterministically. */
export function propertyAttributes(
  dataset: Dataset,
  property: PropertyCore,
  options: RecordOptions,
): PropertyAttributes {
  const random = Random.of(dataset.seed, SALT.record, property.id);
  const msa = MSAS[property.msaIndex];
  const market = dataset.boundary(property.msaId);
  const submarket = dataset.boundary(property.submarketId);
  const factor = rentFactorOn(dataset, property, dayNumber(options.collectedAt), dayNumber(options.today));
  const rent = property.askingRent === null ? null : property.askingRent * factor;
  const concession = property.concessionPercent;
  // Filled field by field below; every field of the record is set (the contract tests check the answers).
  const attributes: Partial<PropertyAttributes> = {
    collected_at: options.collectedAt,
    msa_name: msa?.name ?? null,
    market_geo_boundary_id: property.msaId,
    submarket_geo_boundary_id: property.submarketId,
    market_name: market?.shortName ?? null,
    submarket_name: submarket?.name ?? null,
    property_name: property.name,
    property_id: property.id,
    property_url: property.url,
    address: property.address,
    city: property.city,
    state: property.state,
    zip: property.zip,
    latitude: property.latitude,
    longitude: property.longitude,
    construction_status: property.constructionStatus,
    unified_status: property.unifiedStatus,
    property_class: property.propertyClass,
    management_company_name: property.managementCompany,
    property_type: property.propertyType,
    building_type: property.buildingType,
    unit_count: property.unitCount,
    year_built: property.yearBuilt,
    year_renovated: property.yearRenovated,
    building_count: property.buildingCount,
    rentable_building_area_sq_ft: Math.round(property.unitCount * property.averageUnitSize * 1.18),
    land_area_sq_ft: property.landAreaSqFt,
    units_per_acre: round(property.unitCount / (property.landAreaSqFt / 43_560), 2),
    number_of_stories: property.stories,
    average_unit_size: property.averageUnitSize,
    transit_score: property.transitScore,
    walk_score: property.walkScore,
  };
  const ownerCount = random.int(1, 4);
  const ownership: Partial<PropertyAttributes> = {};
  for (const n of OWNERSHIP_SLOTS) {
    const owned = n <= ownerCount && property.constructionStatus === "existing";
    ownership[`ownership_company_${n}_name`] = owned ? random.pick(OWNERSHIP_COMPANIES) : null;
    ownership[`ownership_company_${n}_ownership_type`] = owned
      ? n === 1
        ? "Owner"
        : random.pick(OWNERSHIP_TYPES)
      : null;
  }
  ownership.owned_since_date =
    property.sale?.dateClosed ??
    (property.constructionStatus === "existing" ? `${property.yearBuilt}-01-01` : null);
  ownership.last_sale_price = property.sale ? property.sale.pricePerUnit * property.unitCount : null;
  ownership.last_sale_price_status = property.sale ? (random.chance(0.8) ? "confirmed" : "estimated") : null;
  if (options.includeOwnership) Object.assign(attributes, ownership);

  const netEffective = rent === null ? null : rent * (1 - concession);
  Object.assign<Partial<PropertyAttributes>, Partial<PropertyAttributes>>(attributes, {
    asking_rent: money(rent),
    asking_rent_psf: rent === null ? null : round(rent / property.averageUnitSize, 4),
    net_effective_rent: money(netEffective),
    net_effective_rent_psf: netEffective === null ? null : round(netEffective / property.averageUnitSize, 4),
    // Percents as fractions; propertyEnvelope writes them as the contract's x-sent-as says.
    exposure_percent: rent === null ? null : round(property.exposurePercent / 100, 4),
    advertised_occupancy_percent: rent === null ? null : round(1 - property.exposurePercent / 100, 4),
    leased_percent: rent === null ? null : round(property.leasedPercent / 100, 4),
  });
  for (const bedrooms of BEDROOM_COUNTS) {
    const share = BEDROOM_MIX[bedrooms] * random.between(0.3, 1.7);
    const unitsOfType = bedrooms === 4 && random.chance(0.8) ? 0 : Math.round(property.unitCount * share);
    const available =
      rent === null
        ? null
        : Math.round((unitsOfType * property.exposurePercent) / 100 + random.between(0, 1.5));
    const bedRent =
      rent === null || unitsOfType === 0
        ? null
        : rent * BEDROOM_RENT_RATIO[bedrooms] * random.between(0.95, 1.05);
    const size = property.averageUnitSize * (0.55 + 0.3 * bedrooms) * random.between(0.92, 1.08);
    const bedNer = bedRent === null ? null : bedRent * (1 - concession);
    attributes[`available_unit_count_${bedrooms}_bed`] =
      available === null ? null : unitsOfType === 0 ? 0 : available;
    attributes[`leased_unit_count_${bedrooms}_bed`] =
      rent === null ? null : Math.round((unitsOfType * property.leasedPercent) / 100);
    attributes[`asking_rent_${bedrooms}_bed`] = money(bedRent);
    attributes[`asking_rent_psf_${bedrooms}_bed`] = bedRent === null ? null : round(bedRent / size, 4);
    attributes[`concession_percent_${bedrooms}_bed`] = bedRent === null ? null : concession;
    attributes[`concession_value_${bedrooms}_bed`] =
      bedRent === null ? null : money(bedRent * concession * 12);
    attributes[`net_effective_rent_${bedrooms}_bed`] = money(bedNer);
    attributes[`net_effective_rent_psf_${bedrooms}_bed`] = bedNer === null ? null : round(bedNer / size, 4);
    attributes[`days_on_market_${bedrooms}_bed`] = bedRent === null ? null : random.int(5, 75);
  }
  return attributes as PropertyAttributes;
}

/** The `{id, type, attributes}` envelope of property search and bulk details. */
export function propertyEnvelope(dataset: Dataset, property: PropertyCore, options: RecordOptions) {
  return {
    id: String(property.id),
    type: "properties" as const,
    attributes: inSentScale(
      "PropertyAttributes",
      propertyAttributes(dataset, property, options),
      options.percentScale ?? "fraction",
    ),
  };
}
