import { readChoice, readList } from "./scalars";

export const GEO_TYPES = [
  "MSA",
  "BespokeSubmarket",
  "CensusPlace",
  "ZipCode",
  "County",
  "Neighborhood",
] as const;
export type GeoType = (typeof GEO_TYPES)[number];

/** Geo types as a range or "MSA, County" text, matched without regard to case. */
export function readGeoTypes(value: unknown, argument: string): GeoType[] {
  return readList(value, argument, (item) => readChoice(item, argument, GEO_TYPES));
}
