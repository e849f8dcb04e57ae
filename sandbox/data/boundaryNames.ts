import type { ShapeVariant } from "../variant";
import type { Boundary } from "./geography";

/** The states the sandbox's MSAs lie in, by the code the geography keeps. */
const STATE_NAMES: Readonly<Record<string, string>> = {
  AZ: "Arizona",
  CA: "California",
  CO: "Colorado",
  DC: "District of Columbia",
  DE: "Delaware",
  FL: "Florida",
  GA: "Georgia",
  IL: "Illinois",
  IN: "Indiana",
  KS: "Kansas",
  KY: "Kentucky",
  MA: "Massachusetts",
  MD: "Maryland",
  MI: "Michigan",
  MN: "Minnesota",
  MO: "Missouri",
  NC: "North Carolina",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NV: "Nevada",
  NY: "New York",
  OH: "Ohio",
  OR: "Oregon",
  PA: "Pennsylvania",
  SC: "South Carolina",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VA: "Virginia",
  WA: "Washington",
  WI: "Wisconsin",
  WV: "West Virginia",
};

export interface BoundaryWords {
  name: string;
  description: string;
}

/**
 * A boundary's name and description as the variant writes them. The vendor's examples (api-notes third pass) name an
 * MSA "Raleigh-Cary, NC Metro Area" and describe a city, a CensusPlace, as the Census does: "Raleigh city, North
 * Carolina"; the other variants keep the geography's own words.
 */
export function boundaryWords(boundary: Boundary, names: ShapeVariant["boundaryNames"]): BoundaryWords {
  if (names === "short") return { name: boundary.name, description: boundary.description };
  if (boundary.geoType === "MSA")
    return { name: `${boundary.name} Metro Area`, description: boundary.description };
  if (boundary.geoType === "CensusPlace") {
    const state = boundary.states[0] ?? "";
    const description = `${boundary.shortName} ${boundary.placeType ?? "place"}, ${STATE_NAMES[state] ?? state}`;
    return { name: boundary.name, description };
  }
  return { name: boundary.name, description: boundary.description };
}
