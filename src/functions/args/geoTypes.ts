import { geoTypeValues, type components } from "../../api/schema";
import { readChoice, readList } from "./scalars";

export type GeoType = components["schemas"]["GeoType"];
export type MarketGeoType = components["schemas"]["MarketGeoType"];

/**
 * The markets RENT.MARKETS compares when a formula names neither a type nor markets. The add-in's own choice,
 * sent with every such request: the service's specification does not say what it compares without a type.
 */
export const DEFAULT_MARKETS_GEO_TYPE: MarketGeoType = "MSA";

/** Geo types as a range or "MSA, County" text, matched without regard to case. */
export function readGeoTypes(value: unknown, argument: string): GeoType[] {
  return readList(value, argument, (item) => readChoice(item, argument, geoTypeValues));
}
