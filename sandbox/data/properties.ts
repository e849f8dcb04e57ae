import type { components } from "../../src/api/schema";
import {
  diamondOf,
  GRID,
  HALF_HEIGHT_DEG,
  HALF_WIDTH_DEG,
  INSET_DEG,
  msaOrigin,
  type Geography,
} from "./geography";
import { MSAS, placeState } from "./msas";
import { Random, round, SALT } from "./random";
import {
  MANAGEMENT_COMPANIES,
  NAME_SUFFIXES,
  NAME_WORDS,
  PROPERTY_TYPES,
  STREET_NAMES,
  STREET_SUFFIXES,
} from "./vocabulary";

export type UnifiedStatus = components["schemas"]["UnifiedStatus"];
export type PropertyClass = components["schemas"]["PropertyClass"];

export interface SaleRecord {
  dateClosed: string;
  capRate: number;
  pricePerUnit: number;
}

/**
 * What every filter and aggregate needs about a property, generated eagerly for all properties.
 * The full record (per-bedroom figures, ownership, ...) is derived from this on demand.
 */
export interface PropertyCore {
  id: number;
  msaIndex: number;
  latitude: number;
  longitude: number;
  msaId: number;
  submarketId: number;
  countyId: number;
  zipId: number;
  placeId: number | null;
  neighborhoodId: number | null;
  name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  url: string;
  managementCompany: string;
  propertyType: string;
  buildingType: string;
  propertyClass: PropertyClass;
  unifiedStatus: UnifiedStatus;
  constructionStatus: "existing" | "under_construction" | "planned";
  unitCount: number;
  yearBuilt: number;
  yearRenovated: number | null;
  stories: number;
  buildingCount: number;
  averageUnitSize: number;
  landAreaSqFt: number;
  walkScore: number;
  transitScore: number;
  /** Current average asking rent; null when the property has no current rent (not yet built, or not surveyed). */
  askingRent: number | null;
  concessionPercent: number;
  leasedPercent: number;
  exposurePercent: number;
  /** Whether the forecast model covers this property. */
  hasForecast: boolean;
  /** The property's rent growth relative to its submarket (fraction per year). */
  growthOffset: number;
  sale: SaleRecord | null;
  loanMaturityDate: string | null;
}

export const FIRST_PROPERTY_ID = 100_001;

/** A date between two years, as YYYY-MM-DD. */
function dateBetween(random: Random, fromYear: number, toYear: number): string {
  const start = Date.UTC(fromYear, 0, 1);
  const end = Date.UTC(toYear, 11, 31);
  return new Date(start + Math.floor(random.next() * ((end - start) / 86_400_000)) * 86_400_000)
    .toISOString()
    .slice(0, 10);
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** Rent level of an MSA relative to the national average: its real-world index, varied a little by the seed. */
export function msaRentLevel(seed: number, msaIndex: number): number {
  return (MSAS[msaIndex]?.rentIndex ?? 1) * Random.of(seed, SALT.market, msaIndex).between(0.95, 1.05);
}

function statusFor(random: Random): UnifiedStatus {
  return random.weighted<UnifiedStatus>([
    ["stabilized", 84],
    ["lease_up", 5],
    ["under_construction", 5],
    ["scheduled_construction", 3],
    ["planning", 3],
  ]);
}

/** Properties spread over the MSAs by weight and over each MSA's grid cells (denser in the centre). */
export function buildProperties(seed: number, count: number, geography: Geography): PropertyCore[] {
  const totalWeight = MSAS.reduce((sum, msa) => sum + msa.weight, 0);
  const perMsa = MSAS.map((msa) => Math.floor((count * msa.weight) / totalWeight));
  perMsa[0] = (perMsa[0] ?? 0) + count - perMsa.reduce((sum, value) => sum + value, 0);
  const cellWeights = Array.from({ length: GRID * GRID }, (_, cell) => {
    const row = Math.floor(cell / GRID);
    const col = cell % GRID;
    return [cell, row >= 1 && row <= 2 && col >= 1 && col <= 2 ? 3 : 1] as const;
  });
  const cellHeight = (2 * HALF_HEIGHT_DEG) / GRID;
  const cellWidth = (2 * HALF_WIDTH_DEG) / GRID;
  const margin = 3 * INSET_DEG;
  const properties: PropertyCore[] = [];
  let id = FIRST_PROPERTY_ID;
  MSAS.forEach((msa, msaIndex) => {
    const ids = geography.msaBoundaryIds[msaIndex];
    if (!ids) throw new Error(`No boundaries for MSA ${msa.name}`);
    const origin = msaOrigin(msa);
    const rentLevel = msaRentLevel(seed, msaIndex);
    for (let n = 0; n < (perMsa[msaIndex] ?? 0); n++, id++) {
      const random = Random.of(seed, SALT.property, id);
      const cell = random.weighted(cellWeights);
      const row = Math.floor(cell / GRID);
      const col = cell % GRID;
      const latitude = round(
        origin.lat + row * cellHeight + margin + random.next() * (cellHeight - 2 * margin),
        6,
      );
      const longitude = round(
        origin.lng + col * cellWidth + margin + random.next() * (cellWidth - 2 * margin),
        6,
      );
      const central = row >= 1 && row <= 2 && col >= 1 && col <= 2;
      const placeIndex = central ? 0 : row === 3 ? 1 : row === 0 ? 2 : -1;
      let neighborhoodId: number | null = null;
      if (central) {
        const shape = diamondOf(msa, row, col);
        const inside =
          Math.abs(latitude - shape.lat) / shape.dLat + Math.abs(longitude - shape.lng) / shape.dLng <= 1;
        if (inside) neighborhoodId = ids.neighborhoods[(row - 1) * 2 + (col - 1)] ?? null;
      }
      const placeId = placeIndex >= 0 ? (ids.places[placeIndex] ?? null) : null;
      const city = placeIndex === 1 ? msa.suburbs[0] : placeIndex === 2 ? msa.suburbs[1] : msa.city;
      const zipBoundary = geography.byId.get(ids.zips[cell] ?? -1);
      const unifiedStatus = statusFor(random);
      const built = unifiedStatus === "stabilized" || unifiedStatus === "lease_up";
      const yearBuilt =
        unifiedStatus === "stabilized"
          ? random.int(1965, 2023)
          : unifiedStatus === "lease_up"
            ? random.int(2024, 2026)
            : unifiedStatus === "under_construction"
              ? 2027
              : 2028;
      const propertyClass: PropertyClass =
        yearBuilt >= 2012 ? random.pick(["A", "A", "B"]) : random.pick(["A", "B", "B", "C", "C"]);
      const stories = propertyClass === "A" && central ? random.int(4, 42) : random.int(2, 5);
      const unitCount = Math.max(
        12,
        Math.round(stories * random.between(12, 28) * (stories > 5 ? 1 : random.between(1, 3))),
      );
      const buildingCount =
        stories > 5 ? random.int(1, 2) : Math.max(1, Math.round(unitCount / random.between(24, 60)));
      const averageUnitSize = Math.round(random.between(680, 1150));
      const classFactor = propertyClass === "A" ? 1.25 : propertyClass === "B" ? 1 : 0.8;
      const hasRent = built && !random.chance(0.03);
      const baseRent =
        1450 * rentLevel * classFactor * (averageUnitSize / 900) ** 0.6 * random.between(0.88, 1.12);
      const name = `${random.chance(0.3) ? "The " : ""}${random.pick(NAME_WORDS)} ${random.pick(NAME_WORDS)} ${random.pick(NAME_SUFFIXES)}`;
      const sold = random.chance(0.45);
      properties.push({
        id,
        msaIndex,
        latitude,
        longitude,
        msaId: ids.msa,
        submarketId: ids.submarkets[(row >= 2 ? 2 : 0) + (col >= 2 ? 1 : 0)] ?? ids.msa,
        countyId: ids.counties[col >= 2 ? 1 : 0] ?? ids.msa,
        zipId: ids.zips[cell] ?? ids.msa,
        placeId,
        neighborhoodId,
        name,
        address: `${random.int(100, 9899)} ${random.pick(STREET_NAMES)} ${random.pick(STREET_SUFFIXES)}`,
        city,
        state: placeState(msa, placeIndex),
        zip: zipBoundary?.name ?? "",
        url: `https://www.example.com/apartments/${slug(city)}/${slug(name)}-${id}`,
        managementCompany: random.pick(MANAGEMENT_COMPANIES),
        propertyType: random.pick(PROPERTY_TYPES),
        buildingType: stories >= 10 ? "High-Rise" : stories >= 5 ? "Mid-Rise" : "Garden",
        propertyClass,
        unifiedStatus,
        constructionStatus: built
          ? "existing"
          : unifiedStatus === "planning"
            ? "planned"
            : "under_construction",
        unitCount,
        yearBuilt,
        yearRenovated:
          yearBuilt < 2005 && random.chance(0.4) ? random.int(Math.max(yearBuilt + 10, 2005), 2024) : null,
        stories,
        buildingCount,
        averageUnitSize,
        landAreaSqFt: Math.round(
          (unitCount / (stories > 5 ? random.between(60, 160) : random.between(12, 35))) * 43_560,
        ),
        walkScore: Math.round(central ? random.between(55, 99) : random.between(10, 70)),
        transitScore: Math.round(central ? random.between(40, 95) : random.between(0, 50)),
        askingRent: hasRent ? Math.round(baseRent) : null,
        concessionPercent: round(random.chance(0.35) ? random.between(0.01, 0.12) : 0, 4),
        leasedPercent: round(
          unifiedStatus === "lease_up" ? random.between(45, 85) : random.between(88, 98.5),
          2,
        ),
        exposurePercent: round(random.between(3, 12), 2),
        hasForecast: built && !random.chance(0.08),
        growthOffset: round(random.gaussian() * 0.008, 5),
        sale: sold
          ? {
              dateClosed: dateBetween(random, 2008, 2025),
              capRate: round(random.between(0.038, 0.075), 4),
              pricePerUnit: Math.round(random.between(90_000, 520_000) * rentLevel * classFactor * 0.8),
            }
          : null,
        loanMaturityDate: built && random.chance(0.6) ? dateBetween(random, 2025, 2035) : null,
      });
    }
  });
  return properties;
}
