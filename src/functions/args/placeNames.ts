/**
 * How a place's name reads, so a typed name is matched to the places named exactly so and never to a place
 * that only contains it. The service's names carry what tells places apart: "Arlington, TX" (a city),
 * "Dallas-Fort Worth-Arlington, TX" or "Raleigh-Cary, NC Metro Area" (a metro: its cities, principal first,
 * and its states).
 */
import type { GeoType } from "./geoTypes";

export interface PlaceCandidate {
  id: number;
  name: string;
  geoType: GeoType;
  /** "city", "town" for a census place. */
  placeType?: string | null;
}

export interface PlaceNaming {
  /** Names the place answers to exactly, in lower case: its whole name and the name before its state. */
  names: string[];
  /** A metro's cities as its name lists them, principal first, in lower case (none for other places). */
  metroCities: string[];
  /** State codes the name ends with ("TX", or "DC-VA-MD-WV" as four). */
  states: string[];
}

/** Lower case, single spaces: how typed names and the service's names are compared. */
export const normalName = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

/** "Raleigh-Cary, NC Metro Area" is the vendor's examples' form of "Raleigh-Cary, NC". */
const METRO_SUFFIX = /\s+metro area$/i;
const WITH_STATES = /^(.*\S)\s*,\s*([A-Za-z]{2}(?:-[A-Za-z]{2})*)$/;

export function namingOf({ name, geoType }: PlaceCandidate): PlaceNaming {
  const whole = name.replace(METRO_SUFFIX, "");
  const withStates = WITH_STATES.exec(whole);
  const base = withStates?.[1] ?? whole;
  const states = withStates?.[2] ? withStates[2].toUpperCase().split("-") : [];
  const names = [...new Set([normalName(name), normalName(whole), normalName(base)])];
  const metroCities = geoType === "MSA" ? base.split("-").map(normalName) : [];
  return { names, metroCities, states };
}

const TYPE_WORDS: Readonly<Record<GeoType, string>> = {
  MSA: "MSA",
  BespokeSubmarket: "submarket",
  CensusPlace: "city",
  ZipCode: "ZIP code",
  County: "county",
  Neighborhood: "neighborhood",
};

/** "MSA or submarket": the kinds of place a function takes, in words ("place" for every kind). */
export function describeTypes(geoTypes: readonly GeoType[]): string {
  const words = [...new Set(geoTypes.map((type) => TYPE_WORDS[type]))];
  if (words.length === Object.keys(TYPE_WORDS).length) return "place";
  return words.length <= 1 ? (words[0] ?? "boundary") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** "Arlington, TX (city, id 2061)": what tells a candidate apart from others of its name. */
export function describePlace(candidate: PlaceCandidate): string {
  const kind =
    candidate.geoType === "CensusPlace" ? (candidate.placeType ?? "city") : TYPE_WORDS[candidate.geoType];
  return `${candidate.name} (${kind}, id ${candidate.id})`;
}

/** At most `shown` items joined with "; ", and how many more there are. */
export function listSome(items: readonly string[], shown = 5): string {
  const more = items.length > shown ? `; and ${items.length - shown} more` : "";
  return `${items.slice(0, shown).join("; ")}${more}`;
}
