import { unitAmenityCategoryValues, type components } from "../../src/api/schema";
import type { Dataset } from "./dataset";
import { feesOf, requiredMonthlyFees } from "./fees";
import type { PropertyCore } from "./properties";
import { rentRatio, isoDate, rentFactorOn } from "./propertyRecord";
import { finishHash, hashPrefix, mixIntoHash, Random, round, SALT } from "./random";

export type UnitStyle = components["schemas"]["UnitStyle"];

/** Example amenity names per contract category (typed by the contract, so a category it adds or drops fails tsc). */
export const AMENITY_CATEGORIES: Record<components["schemas"]["UnitAmenityCategory"], string[]> = {
  Views: ["City view", "Park view", "Courtyard view"],
  "Balcony/Patio": ["Private balcony", "Patio"],
  "Washer/Dryer": ["In-unit washer and dryer"],
  "Kitchen Island": ["Kitchen island"],
  "Stainless Steel Appliances": ["Stainless steel appliances"],
  "Stone Countertops": ["Quartz countertops", "Granite countertops"],
  "Garage Attached": ["Attached garage"],
  "Hardwood Floors": ["Hardwood floors"],
  "Vinyl Flooring": ["Luxury vinyl plank flooring"],
  "Walk-In Closets": ["Walk-in closet"],
  "Linen Closet": ["Linen closet"],
  "High Ceilings": ["9-foot ceilings", "10-foot ceilings"],
  "Ceiling Fans": ["Ceiling fans"],
  "Air Conditioning": ["Central air conditioning"],
  "Smart Technology": ["Smart thermostat", "Keyless entry"],
  "Garbage Disposal": ["Garbage disposal"],
  Dishwasher: ["Dishwasher"],
  Fireplace: ["Gas fireplace"],
  Carpet: ["Carpet in bedrooms"],
  Pantry: ["Pantry"],
  Tile: ["Tile backsplash"],
  "Washer/Dryer Hookup": ["Washer/dryer hookups"],
  other: ["Built-in desk", "Wine fridge"],
};
const CATEGORY_NAMES = unitAmenityCategoryValues;

export interface FloorPlanSpec {
  name: string;
  bedrooms: number;
  bathrooms: number;
  sqFt: number;
  /** Today's typical asking rent of the plan. */
  baseRent: number;
  unitCount: number;
}

export interface UnitSpec {
  key: string;
  plan: FloorPlanSpec;
  floor: number;
  sqFt: number;
  style: UnitStyle;
  rentFactor: number;
  /** Day offset that staggers when the unit comes on the market. */
  phase: number;
  /**
   * The hash of what decides, cycle by cycle, whether the unit is listed (seed, salt, property, unit), all
   * but the cycle: every collection day of every unit asks, so each asks with one part instead of five.
   */
  listingHash: number;
  /**
   * The last listing cycle asked about and whether the unit is listed in it. Collection days are asked in
   * runs (a report's range, a day and the week before it) and a cycle spans 42 of them, so most asks repeat
   * the last one; the answer is a pure function of the cycle, so keeping it changes nothing but the time.
   */
  lastCycle: number;
  listedInLastCycle: boolean;
}

/** A unit as listed on one collection day. */
export interface ListedUnit {
  property: PropertyCore;
  spec: UnitSpec;
  day: number;
  dateAvailable: string;
  daysOnMarket: number;
  rent: number;
  netEffectiveRent: number;
  allInRent: number;
  allInNer: number;
}

/** Units cycle on and off the market in windows of this many days. */
const LISTING_CYCLE_DAYS = 42;

interface PropertyUnits {
  plans: FloorPlanSpec[];
  units: UnitSpec[];
}

const cache = new WeakMap<Dataset, Map<number, PropertyUnits>>();

/** A property's floor plans and units; fixed for the dataset, independent of the day. */
export function unitsOfProperty(dataset: Dataset, property: PropertyCore): PropertyUnits {
  let perDataset = cache.get(dataset);
  if (!perDataset) {
    perDataset = new Map();
    cache.set(dataset, perDataset);
  }
  const cached = perDataset.get(property.id);
  if (cached) return cached;
  const random = Random.of(dataset.seed, SALT.units, property.id);
  const rent = property.askingRent ?? 0;
  const plans: FloorPlanSpec[] = [];
  const mix = [0.1, 0.45, 0.35, 0.1];
  const letters = ["S", "A", "B", "C"];
  for (let bedrooms = 0; bedrooms <= 3; bedrooms++) {
    if (bedrooms === 0 && random.chance(0.4)) continue;
    const planCount = random.int(1, 2);
    for (let index = 1; index <= planCount; index++) {
      const sqFt = Math.round(property.averageUnitSize * (0.55 + 0.3 * bedrooms) * random.between(0.9, 1.12));
      plans.push({
        name: `${letters[bedrooms]}${index}`,
        bedrooms,
        bathrooms: bedrooms <= 1 ? 1 : bedrooms === 2 ? random.pick([1, 2, 2]) : random.pick([2, 2.5]),
        sqFt,
        baseRent: Math.round(rent * rentRatio(bedrooms) * random.between(0.94, 1.08)),
        unitCount: Math.max(2, Math.round((property.unitCount * (mix[bedrooms] ?? 0.1)) / planCount)),
      });
    }
  }
  const units: UnitSpec[] = [];
  const floors = Math.max(1, property.stories);
  plans.forEach((plan) => {
    for (let n = 0; n < plan.unitCount; n++) {
      const floor = 1 + ((units.length * 7 + n) % floors);
      const style: UnitStyle = random.chance(0.05)
        ? "affordable"
        : floor === floors && plan.bedrooms >= 2 && floors >= 4
          ? "penthouse"
          : property.yearRenovated !== null && random.chance(0.4)
            ? "renovated"
            : "standard";
      const key = `${String(floor).padStart(2, "0")}${String(units.length + 1).padStart(3, "0")}`;
      units.push({
        key,
        plan,
        floor,
        sqFt: Math.round(plan.sqFt * random.between(0.97, 1.03)),
        style,
        rentFactor:
          (style === "affordable" ? 0.7 : style === "penthouse" ? 1.25 : style === "renovated" ? 1.08 : 1) *
          random.between(0.97, 1.03),
        phase: random.int(0, LISTING_CYCLE_DAYS - 1),
        listingHash: hashPrefix(dataset.seed, SALT.units, property.id, Number(key)),
        lastCycle: Number.NaN,
        listedInLastCycle: false,
      });
    }
  });
  const result = { plans, units };
  perDataset.set(property.id, result);
  return result;
}

/** Whether a unit is on the market on a day: a share of units close to the property's exposure. */
function listingOf(
  dataset: Dataset,
  property: PropertyCore,
  unit: UnitSpec,
  day: number,
): { start: number } | undefined {
  const cycle = Math.floor((day + unit.phase) / LISTING_CYCLE_DAYS);
  if (!listedInCycle(property, unit, cycle)) return undefined;
  return { start: cycle * LISTING_CYCLE_DAYS - unit.phase };
}

function listedInCycle(property: PropertyCore, unit: UnitSpec, cycle: number): boolean {
  if (unit.lastCycle === cycle) return unit.listedInLastCycle;
  const roll = finishHash(mixIntoHash(unit.listingHash, cycle)) % 10_000;
  unit.lastCycle = cycle;
  unit.listedInLastCycle = roll < property.exposurePercent * 100 * 1.6;
  return unit.listedInLastCycle;
}

/**
 * How many (unit, day) listings a property has from `first` to `last`, i.e. the sum of
 * `listedUnits(...).length` over those days, counted per listing cycle instead of per day so an
 * export can be sized before any row is built.
 */
export function listingCount(dataset: Dataset, property: PropertyCore, first: number, last: number): number {
  let count = 0;
  for (const unit of unitsOfProperty(dataset, property).units) {
    const firstCycle = Math.floor((first + unit.phase) / LISTING_CYCLE_DAYS);
    const lastCycle = Math.floor((last + unit.phase) / LISTING_CYCLE_DAYS);
    for (let cycle = firstCycle; cycle <= lastCycle; cycle++) {
      if (!listedInCycle(property, unit, cycle)) continue;
      const start = cycle * LISTING_CYCLE_DAYS - unit.phase;
      count += Math.min(last, start + LISTING_CYCLE_DAYS - 1) - Math.max(first, start) + 1;
    }
  }
  return count;
}

/** The units of a property available on a collection day, with that day's prices. */
export function listedUnits(
  dataset: Dataset,
  property: PropertyCore,
  day: number,
  today: number,
): ListedUnit[] {
  const { units } = unitsOfProperty(dataset, property);
  const fees = requiredMonthlyFees(feesOf(dataset, property));
  const factor = rentFactorOn(dataset, property, day, today);
  const listed: ListedUnit[] = [];
  for (const spec of units) {
    const listing = listingOf(dataset, property, spec, day);
    if (!listing) continue;
    const rent = round(spec.plan.baseRent * spec.rentFactor * factor, 2);
    const netEffectiveRent = round(rent * (1 - property.concessionPercent), 2);
    listed.push({
      property,
      spec,
      day,
      dateAvailable: isoDate(listing.start + 10 + (Number(spec.key) % 25)),
      daysOnMarket: day - listing.start,
      rent,
      netEffectiveRent,
      allInRent: round(rent + fees, 2),
      allInNer: round(netEffectiveRent + fees, 2),
    });
  }
  return listed;
}

/** Amenity names of a unit by category: a few categories, stable per unit. */
export function amenityNamesOf(
  dataset: Dataset,
  property: PropertyCore,
  unit: UnitSpec,
): Partial<Record<components["schemas"]["UnitAmenityCategory"], string[]>> {
  const random = Random.of(dataset.seed, SALT.units, property.id, Number(unit.key), 3);
  const chosen: Partial<Record<components["schemas"]["UnitAmenityCategory"], string[]>> = {};
  const count = random.int(3, 7);
  for (let n = 0; n < count; n++) {
    const category = random.pick(CATEGORY_NAMES);
    chosen[category] = [random.pick(AMENITY_CATEGORIES[category])];
  }
  return chosen;
}
