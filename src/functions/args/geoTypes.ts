import { geoTypeValues, type components } from "../../api/schema";
import { readChoice, readList } from "./scalars";

export type GeoType = components["schemas"]["GeoType"];

/** Geo types as a range or "MSA, County" text, matched without regard to case. */
export function readGeoTypes(value: unknown, argument: string): GeoType[] {
  return readList(value, argument, (item) => readChoice(item, argument, geoTypeValues));
}
