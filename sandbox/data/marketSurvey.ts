import type { CompSet } from "./compSets";
import type { Dataset } from "./dataset";
import { feesAndDeposits, feesOf, requiredMonthlyFees } from "./fees";
import { distanceMiles } from "./propertyFilters";
import type { PropertyCore } from "./properties";
import { rentFactorOn } from "./propertyRecord";
import { Random, round, SALT } from "./random";
import { concessionsOf, type UnitTexts } from "./unitRecord";
import { listedUnits, unitsOfProperty, type ListedUnit } from "./units";
import type { ShapeVariant } from "../variant";
import { percentIn } from "../variant";

type PercentScale = ShapeVariant["percentScale"];

/**
 * The amenity vocabulary of the market survey: the live service sends every name for every property, `false`
 * where absent (about 95 per property, api-notes second pass).
 */
const AMENITY_NAMES = [
  "Access Gates (Driving)",
  "Access Gates (Pedestrian)",
  "Business Center",
  "Car Charging Stations",
  "Car Wash Area",
  "Clubhouse",
  "Community Garden",
  "Concierge",
  "Conference Room",
  "Controlled Access",
  "Courtesy Patrol",
  "Courtyard",
  "Coworking Lounge",
  "Dog Park",
  "Dog Wash",
  "Doorman",
  "Elevator",
  "Fire Pit",
  "Fitness Center",
  "Furnished Available",
  "Game Room",
  "Gated Community",
  "Grilling Area",
  "Guest Suite",
  "Hot Tub",
  "Laundry Facility",
  "Library",
  "Lounge",
  "Media Room",
  "Onsite Maintenance",
  "Onsite Management",
  "Package Lockers",
  "Package Receiving",
  "Parking Garage",
  "Playground",
  "Picnic Area",
  "Pool",
  "Reserved Parking",
  "Rooftop Deck",
  "Sauna",
  "Short Term Lease",
  "Sky Lounge",
  "Sports Court",
  "Storage Units",
  "Tennis Court",
  "Trash Valet",
  "Valet Parking",
  "Walking Trails",
  "Wi-Fi Common Areas",
  "Yoga Studio",
  "Bike Storage",
  "Bike Repair Station",
  "Basketball Court",
  "Volleyball Court",
  "Putting Green",
  "Golf Simulator",
  "Spa",
  "Steam Room",
  "Tanning Bed",
  "Movie Theater",
  "Demonstration Kitchen",
  "Wine Room",
  "Pet Friendly",
  "Pet Spa",
  "Smoke Free",
  "Recycling",
  "Green Building",
  "EV Parking",
  "Covered Parking",
  "Detached Garages",
  "Carports",
  "Lake Access",
  "Waterfront",
  "City Views",
  "Mountain Views",
  "Rooftop Pool",
  "Saltwater Pool",
  "Cabanas",
  "Outdoor Kitchen",
  "Outdoor Fireplace",
  "Hammock Garden",
  "Children's Play Room",
  "Teen Lounge",
  "Study Rooms",
  "Shuttle Service",
  "Public Transit Access",
  "Bike Share",
  "Ride Share Lounge",
  "Smart Home Technology",
  "Keyless Entry",
  "Intercom",
  "Emergency Maintenance",
  "Online Rent Payment",
  "Online Maintenance Requests",
  "Resident Events",
  "Stainless Steel Appliances",
];

/**
 * `apartmentiq_property_type` is a property-type word (api-notes third pass): the support glossary's (Conventional,
 * Student, Senior, Affordable, Built to Rent) or the API example's spelling, "standard" for a conventional property
 * (the sandbox writes the other words of that form in lower case).
 */
function apartmentIqPropertyType(glossaryWord: string, words: ShapeVariant["propertyTypeWords"]): string {
  if (words === "glossary") return glossaryWord;
  return glossaryWord === "Conventional" ? "standard" : glossaryWord.toLowerCase().replace(/ /g, "_");
}

const UNIT_TYPE_LABELS = ["studio", "1_bed", "2_bed", "3_bed"];

function breakdowns(rent: number, concession: number, fees: number, sqFt: number) {
  const ner = rent * (1 - concession);
  return {
    total: { base_rent: round(rent, 2), required_monthly_fees: fees, total: round(rent + fees, 2) },
    totalPsf: round((rent + fees) / sqFt, 4),
    ner: { net_effective_rent: round(ner, 2), required_monthly_fees: fees, total: round(ner + fees, 2) },
    nerPsf: round((ner + fees) / sqFt, 4),
  };
}

function keyedPricing(
  groups: Map<string, { rent: number; sqFt: number }[]>,
  concession: number,
  fees: number,
) {
  type Breakdowns = ReturnType<typeof breakdowns>;
  const result = {
    total: {} as Record<string, Breakdowns["total"]>,
    totalPsf: {} as Record<string, number>,
    ner: {} as Record<string, Breakdowns["ner"]>,
    nerPsf: {} as Record<string, number>,
  };
  for (const [key, plans] of groups) {
    const rent = plans.reduce((sum, plan) => sum + plan.rent, 0) / plans.length;
    const sqFt = plans.reduce((sum, plan) => sum + plan.sqFt, 0) / plans.length;
    const figures = breakdowns(rent, concession, fees, sqFt);
    result.total[key] = figures.total;
    result.totalPsf[key] = figures.totalPsf;
    result.ner[key] = figures.ner;
    result.nerPsf[key] = figures.nerPsf;
  }
  return result;
}

function meanOrNull(values: number[], decimals: number): number | null {
  return values.length === 0
    ? null
    : round(values.reduce((sum, value) => sum + value, 0) / values.length, decimals);
}

/** The live survey's `by_unit_type_*` figures: one object per figure, keyed by unit type. */
function unitTypeFigures(
  listed: ListedUnit[],
  planUnits: Map<string, number>,
  concession: number,
  scale: PercentScale,
  concessionText: string | null,
) {
  const figures = {
    by_unit_type_available_units_count: {} as Record<string, number>,
    by_unit_type_leased_units_count: {} as Record<string, number>,
    by_unit_type_vacant_units_count: {} as Record<string, number>,
    by_unit_type_days_on_market_avg: {} as Record<string, number | null>,
    by_unit_type_rent_avg: {} as Record<string, number | null>,
    by_unit_type_rent_per_sq_ft_avg: {} as Record<string, number | null>,
    by_unit_type_ner_avg: {} as Record<string, number | null>,
    by_unit_type_ner_per_sq_ft_avg: {} as Record<string, number | null>,
    by_unit_type_concession_avg: {} as Record<string, number | null>,
    by_unit_type_concession_percentage_avg: {} as Record<string, number | null>,
    by_unit_type_concessions: {} as Record<string, string | null>,
  };
  for (const [type, total] of planUnits) {
    const units = listed.filter((unit) => unitTypeOf(unit.spec.plan.bedrooms) === type);
    figures.by_unit_type_available_units_count[type] = units.length;
    figures.by_unit_type_vacant_units_count[type] = units.length;
    figures.by_unit_type_leased_units_count[type] = total - units.length;
    figures.by_unit_type_days_on_market_avg[type] = meanOrNull(
      units.map((unit) => unit.daysOnMarket),
      1,
    );
    figures.by_unit_type_rent_avg[type] = meanOrNull(
      units.map((unit) => unit.rent),
      2,
    );
    figures.by_unit_type_rent_per_sq_ft_avg[type] = meanOrNull(
      units.map((unit) => unit.rent / unit.spec.sqFt),
      4,
    );
    figures.by_unit_type_ner_avg[type] = meanOrNull(
      units.map((unit) => unit.netEffectiveRent),
      2,
    );
    figures.by_unit_type_ner_per_sq_ft_avg[type] = meanOrNull(
      units.map((unit) => unit.netEffectiveRent / unit.spec.sqFt),
      4,
    );
    figures.by_unit_type_concession_avg[type] = meanOrNull(
      units.map((unit) => unit.rent - unit.netEffectiveRent),
      2,
    );
    figures.by_unit_type_concession_percentage_avg[type] =
      units.length === 0 ? null : percentIn(scale, concession * 100);
    figures.by_unit_type_concessions[type] = units.length === 0 ? null : concessionText;
  }
  return figures;
}

function unitTypeOf(bedrooms: number): string {
  return UNIT_TYPE_LABELS[bedrooms] ?? `${bedrooms}_bed`;
}

/**
 * One row of the market survey table (one property of the comp set) on a day, shaped as the live service
 * answers (api-notes, "Observed on the live service"). With a bedroom filter the rent and size figures cover
 * the matching floor plans only.
 */
function surveyItem(
  dataset: Dataset,
  property: PropertyCore,
  subject: boolean,
  origin: PropertyCore,
  day: number,
  today: number,
  shape: ShapeVariant,
  texts: UnitTexts,
  bedrooms: ReadonlySet<number> | undefined,
) {
  const scale = shape.percentScale;
  const random = Random.of(dataset.seed, SALT.record, property.id, 42);
  const factor = rentFactorOn(dataset, property, day, today);
  const fees = feesOf(dataset, property);
  const monthly = requiredMonthlyFees(fees);
  const concession = property.concessionPercent;
  const plans = unitsOfProperty(dataset, property).plans.filter(
    (plan) => !bedrooms || bedrooms.has(plan.bedrooms),
  );
  const matchingRent = meanOrNull(
    plans.map((plan) => plan.baseRent * factor),
    2,
  );
  const matchingSize = meanOrNull(
    plans.map((plan) => plan.sqFt),
    0,
  );
  const rent = bedrooms ? (matchingRent ?? 0) : (property.askingRent ?? 0) * factor;
  const size = bedrooms ? (matchingSize ?? property.averageUnitSize) : property.averageUnitSize;
  const byType = new Map<string, { rent: number; sqFt: number }[]>();
  const byBedBath = new Map<string, { rent: number; sqFt: number }[]>();
  for (const plan of plans) {
    const entry = { rent: plan.baseRent * factor, sqFt: plan.sqFt };
    const typeKey = unitTypeOf(plan.bedrooms);
    const bedBathKey = `${plan.bedrooms}x${plan.bathrooms}`;
    byType.set(typeKey, [...(byType.get(typeKey) ?? []), entry]);
    byBedBath.set(bedBathKey, [...(byBedBath.get(bedBathKey) ?? []), entry]);
  }
  const overall = breakdowns(rent, concession, monthly, size);
  const types = keyedPricing(byType, concession, monthly);
  const bedBaths = keyedPricing(byBedBath, concession, monthly);
  const listed = listedUnits(dataset, property, day, today).filter(
    (unit) => !bedrooms || bedrooms.has(unit.spec.plan.bedrooms),
  );
  const concessions = listed[0] ? concessionsOf(listed[0], texts) : null;
  const planUnits = new Map<string, number>();
  for (const plan of plans) {
    const type = unitTypeOf(plan.bedrooms);
    planUnits.set(type, (planUnits.get(type) ?? 0) + plan.unitCount);
  }
  const percent = (points: number) => percentIn(scale, points);
  return {
    id: property.id,
    property_name: property.name,
    subject_property: subject,
    management_company_name: property.managementCompany,
    address: property.address,
    city: property.city,
    state: property.state,
    zip_code: property.zip,
    distance: round(
      distanceMiles(origin.latitude, origin.longitude, property.latitude, property.longitude),
      2,
    ),
    year_built: property.yearBuilt,
    total_units: property.unitCount,
    number_of_stories: property.stories,
    apartmentiq_property_type: apartmentIqPropertyType(property.propertyType, shape.propertyTypeWords),
    image_url: `https://images.example.invalid/properties/${property.id}.jpg`,
    avg_rent: round(rent, 2),
    avg_sq_ft: size,
    avg_rent_per_sq_ft: round(rent / size, 4),
    exposure: {
      current: percent(property.exposurePercent),
      next_30_days: percent(property.exposurePercent + random.between(0.5, 2.5)),
      next_60_days: percent(property.exposurePercent + random.between(2.5, 5)),
    },
    leased_percent: percent(property.leasedPercent),
    advertised_occupancy_percent: percent(100 - property.exposurePercent),
    concession_percentage: percent(concession * 100),
    cancelled_applications_percentage_last_30_days: percent(random.between(0, 12)),
    review: { average_rating: round(random.between(2.8, 4.9), 1), review_count: random.int(3, 400) },
    concessions,
    amenities: Object.fromEntries(AMENITY_NAMES.map((name) => [name, random.chance(0.3)])),
    fees_and_deposits: feesAndDeposits(dataset, property),
    ...unitTypeFigures(listed, planUnits, concession, scale, concessions?.display_text ?? null),
    total_monthly_leasing_price_breakdown: overall.total,
    total_monthly_leasing_price_psf: overall.totalPsf,
    all_in_net_effective_rent_breakdown: overall.ner,
    all_in_net_effective_rent_psf: overall.nerPsf,
    by_unit_type_total_monthly_leasing_price_breakdown: types.total,
    by_unit_type_total_monthly_leasing_price_psf: types.totalPsf,
    by_unit_type_all_in_net_effective_rent_breakdown: types.ner,
    by_unit_type_all_in_net_effective_rent_psf: types.nerPsf,
    by_bed_bath_total_monthly_leasing_price_breakdown: bedBaths.total,
    by_bed_bath_total_monthly_leasing_price_psf: bedBaths.totalPsf,
    by_bed_bath_all_in_net_effective_rent_breakdown: bedBaths.ner,
    by_bed_bath_all_in_net_effective_rent_psf: bedBaths.nerPsf,
  };
}

type SurveyItem = ReturnType<typeof surveyItem>;

function mean(items: SurveyItem[], pick: (item: SurveyItem) => number): number | null {
  return items.length === 0
    ? null
    : round(items.reduce((sum, item) => sum + pick(item), 0) / items.length, 4);
}

/** The comp set's survey table plus the comps' average column. */
export function marketSurvey(
  dataset: Dataset,
  compSet: CompSet,
  day: number,
  today: number,
  shape: ShapeVariant,
  texts: UnitTexts,
  bedrooms?: ReadonlySet<number>,
) {
  const properties = compSet.propertyIds
    .map((id) => dataset.propertyById.get(id))
    .filter((p) => p !== undefined);
  const origin = properties[0];
  if (!origin) throw new Error(`Comp set ${compSet.id} has no properties`);
  const items = properties.map((property) =>
    surveyItem(
      dataset,
      property,
      compSet.subjectIds.includes(property.id),
      origin,
      day,
      today,
      shape,
      texts,
      bedrooms,
    ),
  );
  const comps = items.filter((item) => !item.subject_property);
  const breakdownMean = <K extends string>(pick: (item: SurveyItem) => Record<K, number>, keys: K[]) =>
    Object.fromEntries(keys.map((key) => [key, mean(comps, (item) => pick(item)[key])])) as Record<
      K,
      number | null
    >;
  return {
    items,
    average: {
      avg_rent: mean(comps, (item) => item.avg_rent),
      avg_sq_ft: mean(comps, (item) => item.avg_sq_ft),
      avg_rent_per_sq_ft: mean(comps, (item) => item.avg_rent_per_sq_ft),
      exposure: {
        current: mean(comps, (item) => item.exposure.current),
        next_30_days: mean(comps, (item) => item.exposure.next_30_days),
        next_60_days: mean(comps, (item) => item.exposure.next_60_days),
      },
      leased_percent: mean(comps, (item) => item.leased_percent),
      advertised_occupancy_percent: mean(comps, (item) => item.advertised_occupancy_percent),
      concession_percentage: mean(comps, (item) => item.concession_percentage),
      cancelled_applications_percentage_last_30_days: mean(
        comps,
        (item) => item.cancelled_applications_percentage_last_30_days,
      ),
      year_built: mean(comps, (item) => item.year_built ?? 0),
      total_units: mean(comps, (item) => item.total_units),
      number_of_stories: mean(comps, (item) => item.number_of_stories),
      total_monthly_leasing_price_breakdown: breakdownMean(
        (item) => item.total_monthly_leasing_price_breakdown,
        ["base_rent", "required_monthly_fees", "total"],
      ),
      total_monthly_leasing_price_psf: mean(comps, (item) => item.total_monthly_leasing_price_psf),
      all_in_net_effective_rent_breakdown: breakdownMean(
        (item) => item.all_in_net_effective_rent_breakdown,
        ["net_effective_rent", "required_monthly_fees", "total"],
      ),
      all_in_net_effective_rent_psf: mean(comps, (item) => item.all_in_net_effective_rent_psf),
    },
  };
}
