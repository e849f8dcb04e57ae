import type { components } from "../../src/api/schema";
import type { Dataset } from "./dataset";
import type { Boundary, GeoType } from "./geography";
import { msaRentLevel, type PropertyCore } from "./properties";
import { rentRatio, dayNumber } from "./propertyRecord";
import { Random, round, SALT } from "./random";

/**
 * A boundary's market figures, typed by the contract's compare_market record (so a field that drifts from the
 * contract fails tsc). Any boundary has them (a ZIP code's rent is the baseline of its forecast in dollars);
 * only markets are answered as compare_market records, see `marketRecord`.
 */
export type MarketAttributes = Omit<components["schemas"]["CompareMarketAttributes"], "geo_type"> & {
  geo_type: GeoType;
};

/** The bedroom counts of the market record's per-bedroom figures. */
const MARKET_BEDROOM_COUNTS = [0, 1, 2, 3] as const;

function average(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** Linear-interpolated percentile (0..1) of unsorted values; null when empty. */
function percentile(values: number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * fraction;
  const lower = sorted[Math.floor(position)] ?? 0;
  const upper = sorted[Math.ceil(position)] ?? lower;
  return lower + (upper - lower) * (position - Math.floor(position));
}

function r(value: number | null, decimals = 2): number | null {
  return value === null ? null : round(value, decimals);
}

/** Baseline annual rent growth of a market (fraction), before property-level offsets. */
export function marketBaseGrowth(seed: number, msaIndex: number): number {
  return round(Random.of(seed, SALT.market, msaIndex, 1).between(-0.01, 0.055), 4);
}

/**
 * The compare_market attributes of a boundary, aggregated over the given member properties (all
 * of the boundary's properties, or those passing property-level filters).
 */
export function marketAttributes(
  dataset: Dataset,
  boundary: Boundary,
  members: PropertyCore[],
  today: string,
): MarketAttributes {
  const random = Random.of(dataset.seed, SALT.market, boundary.id);
  const existing = members.filter((p) => p.constructionStatus === "existing");
  const rented = existing.filter((p): p is PropertyCore & { askingRent: number } => p.askingRent !== null);
  const rent = average(rented.map((p) => p.askingRent));
  const concession = average(rented.map((p) => p.concessionPercent)) ?? 0;
  const ner = rent === null ? null : rent * (1 - concession);
  const size = average(existing.map((p) => p.averageUnitSize));
  const rentPsf = average(rented.map((p) => p.askingRent / p.averageUnitSize));
  const nerPsfs = rented.map((p) => (p.askingRent * (1 - p.concessionPercent)) / p.averageUnitSize);
  const growth =
    rented.length === 0
      ? null
      : marketBaseGrowth(dataset.seed, boundary.msaIndex) + (average(rented.map((p) => p.growthOffset)) ?? 0);
  const unitsOf = (list: PropertyCore[]) => sum(list.map((p) => p.unitCount));
  const byStatus = (status: PropertyCore["unifiedStatus"]) =>
    members.filter((p) => p.unifiedStatus === status);
  const todayDay = dayNumber(today);
  const recentSales = members.filter(
    (p) => p.sale !== null && todayDay - dayNumber(p.sale.dateClosed) <= 365,
  );
  const allSales = members.filter((p) => p.sale !== null);
  const available = sum(existing.map((p) => Math.round((p.unitCount * p.exposurePercent) / 100)));
  const populationBase = members.length * random.between(700, 1100);
  const rentLevel = msaRentLevel(dataset.seed, boundary.msaIndex);
  const ageShares = [0.16, 0.15, 0.2, 0.28].map((share) => share * random.between(0.85, 1.15));
  // Filled field by field below; every field of the record is set (the contract tests check the answers).
  const attributes: Partial<MarketAttributes> = {
    id: boundary.id,
    name: boundary.name,
    short_name: boundary.shortName,
    description: boundary.description,
    geo_type: boundary.geoType,
    geo_states: boundary.states,
    place_type: boundary.placeType,
    centroid: boundary.centroid,
    property_count_total: members.length,
    rent_avg_t30: r(rent),
  };
  for (const bedrooms of MARKET_BEDROOM_COUNTS) {
    attributes[`rent_${bedrooms}_bed_avg_t30`] = r(rent === null ? null : rent * rentRatio(bedrooms));
  }
  attributes.ner_avg_t30 = r(ner);
  for (const bedrooms of MARKET_BEDROOM_COUNTS) {
    attributes[`ner_${bedrooms}_bed_avg_t30`] = r(ner === null ? null : ner * rentRatio(bedrooms));
  }
  attributes.rent_psf_avg_t30 = r(rentPsf, 4);
  const bedSize = (bedrooms: number) => (size === null ? null : size * (0.55 + 0.3 * bedrooms));
  for (const bedrooms of MARKET_BEDROOM_COUNTS) {
    const sizeOfType = bedSize(bedrooms);
    attributes[`rent_${bedrooms}_bed_psf_avg_t30`] = r(
      rent === null || sizeOfType === null ? null : (rent * rentRatio(bedrooms)) / sizeOfType,
      4,
    );
  }
  attributes.ner_psf_avg_t30 = r(average(nerPsfs), 4);
  for (const bedrooms of MARKET_BEDROOM_COUNTS) {
    const sizeOfType = bedSize(bedrooms);
    attributes[`ner_${bedrooms}_bed_psf_avg_t30`] = r(
      ner === null || sizeOfType === null ? null : (ner * rentRatio(bedrooms)) / sizeOfType,
      4,
    );
  }
  Object.assign<Partial<MarketAttributes>, Partial<MarketAttributes>>(attributes, {
    ner_psf_p88_t30: r(percentile(nerPsfs, 0.88), 4),
    ner_psf_p68_t30: r(percentile(nerPsfs, 0.68), 4),
    ner_psf_p18_t30: r(percentile(nerPsfs, 0.18), 4),
    rent_growth_rate_yoy_avg: r(growth, 4),
    ner_growth_rate_yoy_avg: r(growth === null ? null : growth - 0.004, 4),
    forecasted_rent_growth_rate_yoy: r(growth === null ? null : growth * 0.8 + 0.006, 4),
    rent_growth_rate_yoy_by_quarter_avg: r(
      growth === null ? null : growth + random.between(-0.004, 0.004),
      4,
    ),
    ner_growth_rate_yoy_by_quarter_avg: r(
      growth === null ? null : growth - 0.004 + random.between(-0.004, 0.004),
      4,
    ),
    rent_growth_rate_t90_avg: r(growth === null ? null : growth / 4 + random.between(-0.002, 0.002), 4),
    ner_growth_rate_t90_avg: r(growth === null ? null : growth / 4 - 0.001, 4),
    concession_value_avg_t30: r(average(rented.map((p) => p.askingRent * p.concessionPercent * 12))),
    // Percents are held as fractions (the truth the narratives state); routes write them as the contract's
    // x-sent-as says (sandbox/contract/sentScale.ts).
    concession_percent_avg_t30: r(rented.length === 0 ? null : concession, 4),
    exposure_percent_avg_t30: r(average(rented.map((p) => p.exposurePercent / 100)), 4),
    leased_percent_avg_t30: r(average(rented.map((p) => p.leasedPercent / 100)), 4),
    advertised_occupancy_percent_avg_t30: r(average(rented.map((p) => 1 - p.exposurePercent / 100)), 4),
    days_on_market_avg_t30: r(rented.length === 0 ? null : random.between(18, 48), 1),
    total_unit_count: unitsOf(members),
    existing_unit_count_total: unitsOf(existing),
    new_supply_unit_count_total: unitsOf(byStatus("lease_up")),
    under_construction_unit_count_total: unitsOf(byStatus("under_construction")),
    planned_unit_count_total: unitsOf([...byStatus("planning"), ...byStatus("scheduled_construction")]),
    delivered_unit_count_total_mtd: Math.round(unitsOf(byStatus("lease_up")) / 12),
    delivered_unit_count_total_t365: unitsOf(byStatus("lease_up")),
    available_unit_count_new_to_market_total_mtd: Math.round(available * 0.6),
    leased_unit_count_total_mtd: Math.round(available * 0.55),
    available_unit_count_total_t30: available,
    leased_unit_count_total_t30: Math.round(available * 0.9),
    unit_sq_ft_avg: r(size, 1),
    amenity_count_p50: existing.length === 0 ? null : random.int(12, 30),
    year_built_p50: percentile(
      existing.map((p) => p.yearBuilt),
      0.5,
    ),
    year_renovated_p50: percentile(
      existing.flatMap((p) => (p.yearRenovated === null ? [] : [p.yearRenovated])),
      0.5,
    ),
    building_square_feet_avg: r(
      average(existing.map((p) => (p.unitCount * p.averageUnitSize * 1.18) / p.buildingCount)),
      0,
    ),
    rentable_building_area_sq_ft_avg: r(
      average(existing.map((p) => p.unitCount * p.averageUnitSize * 1.18)),
      0,
    ),
    rentable_building_area_sq_ft_per_floor_avg: r(
      average(existing.map((p) => (p.unitCount * p.averageUnitSize * 1.18) / p.stories)),
      0,
    ),
    land_area_sq_ft_avg: r(average(existing.map((p) => p.landAreaSqFt)), 0),
    land_area_acres_avg: r(average(existing.map((p) => p.landAreaSqFt / 43_560)), 2),
    units_per_acre_avg: r(average(existing.map((p) => p.unitCount / (p.landAreaSqFt / 43_560))), 2),
    units_per_building_avg: r(average(existing.map((p) => p.unitCount / p.buildingCount)), 1),
    units_per_floor_avg: r(average(existing.map((p) => p.unitCount / p.stories)), 1),
    number_of_stories_avg: r(average(existing.map((p) => p.stories)), 1),
    building_count_avg: r(average(existing.map((p) => p.buildingCount)), 1),
    walk_score_avg: r(average(existing.map((p) => p.walkScore)), 1),
    transit_score_avg: r(average(existing.map((p) => p.transitScore)), 1),
    bike_score_avg: r(average(existing.map((p) => (p.walkScore + p.transitScore) / 2)), 1),
    population_growth_last_5_years_total: r(members.length === 0 ? null : random.between(-0.02, 0.12), 4),
    population_growth_last_5_years_20_29: r(members.length === 0 ? null : random.between(-0.05, 0.15), 4),
    population_growth_last_5_years_30_39: r(members.length === 0 ? null : random.between(-0.03, 0.18), 4),
    population_growth_last_5_years_40_54: r(members.length === 0 ? null : random.between(-0.04, 0.08), 4),
    population_growth_last_5_years_55_up: r(members.length === 0 ? null : random.between(0.02, 0.2), 4),
    population_total: Math.round(populationBase),
    population_20_29: Math.round(populationBase * (ageShares[0] ?? 0)),
    population_30_39: Math.round(populationBase * (ageShares[1] ?? 0)),
    population_40_54: Math.round(populationBase * (ageShares[2] ?? 0)),
    population_55_up: Math.round(populationBase * (ageShares[3] ?? 0)),
    median_income: members.length === 0 ? null : Math.round(52_000 * rentLevel * random.between(0.85, 1.2)),
    median_income_growth_yoy: r(members.length === 0 ? null : random.between(0.005, 0.06), 4),
    employed_labor_force_percent: r(members.length === 0 ? null : random.between(0.92, 0.975), 4),
    employed_labor_force_growth_rate_yoy: r(members.length === 0 ? null : random.between(-0.01, 0.04), 4),
    sold_property_count_total_t365: recentSales.length,
    sold_unit_count_total_t365: unitsOf(recentSales),
    sold_unit_count_avg_t365: r(average(recentSales.map((p) => p.unitCount)), 1),
    sale_price_avg_t365: r(average(recentSales.map((p) => (p.sale?.pricePerUnit ?? 0) * p.unitCount)), 0),
    sale_price_total_t365: sum(recentSales.map((p) => (p.sale?.pricePerUnit ?? 0) * p.unitCount)),
    sale_price_avg_t365_per_unit: r(average(recentSales.map((p) => p.sale?.pricePerUnit ?? 0)), 0),
    sale_cap_rate_avg_t365: r(average(recentSales.map((p) => p.sale?.capRate ?? 0)), 4),
    sale_price_per_unit_growth_yoy: r(recentSales.length === 0 ? null : random.between(-0.05, 0.09), 4),
    cap_rate_avg: r(average(allSales.map((p) => p.sale?.capRate ?? 0)), 4),
    asset_value_total:
      rent === null
        ? null
        : Math.round(sum(rented.map((p) => p.askingRent * 12 * p.unitCount * 0.6)) / 0.055),
    asset_value_per_unit_avg: r(average(rented.map((p) => (p.askingRent * 12 * 0.6) / 0.055)), 0),
  });
  return attributes as MarketAttributes;
}

const cache = new WeakMap<Dataset, Map<string, MarketAttributes>>();

/** A boundary's market attributes over all its properties, cached per dataset and day. */
export function boundaryMarket(dataset: Dataset, boundary: Boundary, today: string): MarketAttributes {
  let perDataset = cache.get(dataset);
  if (!perDataset) {
    perDataset = new Map();
    cache.set(dataset, perDataset);
  }
  const key = `${boundary.id}:${today}`;
  let attributes = perDataset.get(key);
  if (!attributes) {
    attributes = marketAttributes(
      dataset,
      boundary,
      dataset.propertiesByBoundary.get(boundary.id) ?? [],
      today,
    );
    perDataset.set(key, attributes);
  }
  return attributes;
}
