import { GEO_SEARCH } from "../../data/endpoints";
import { ApiError } from "../../api/errors";
import type { CellContext } from "../cellContext";
import { plainValue, readId, readText } from "./scalars";

/** Geography types, as the service names them. */
export type GeoType = "MSA" | "BespokeSubmarket" | "CensusPlace" | "ZipCode" | "County" | "Neighborhood";

export interface ResolvedBoundary {
  id: number;
  /** The type of the boundary a name resolved to (unknown for an id). */
  geoType?: GeoType;
}

const isIdText = (value: unknown) =>
  typeof value === "number" || (typeof value === "string" && /^\s*\d+\s*$/.test(value));

/**
 * The one resolver of a market or area asked for by id or by name, for every function that takes one
 * (RENT.MARKET, RENT.GEOFORECAST, RENT.PROPERTIES): an id is taken as it is; a name is searched (one cached
 * request per name) among the boundary types the function takes, and the service's best match (ranked by its
 * property count and type) is used.
 */
export async function resolveBoundary(
  value: unknown,
  context: CellContext,
  argument: string,
  geoTypes: readonly GeoType[],
): Promise<ResolvedBoundary> {
  value = plainValue(value);
  if (isIdText(value)) return { id: readId(value, argument) };
  const query = readText(value, argument).trim();
  const body = { query, geo_type: [...geoTypes], limit: 1 };
  const best = (await context.data.read(GEO_SEARCH, body, context.call)).value.data[0];
  if (!best) throw new ApiError("not_found", `No ${describeTypes(geoTypes)} matches "${query}".`);
  return { id: best.attributes.id, geoType: best.attributes.geo_type as GeoType };
}

const TYPE_WORDS: Readonly<Record<GeoType, string>> = {
  MSA: "MSA",
  BespokeSubmarket: "submarket",
  CensusPlace: "city",
  ZipCode: "ZIP code",
  County: "county",
  Neighborhood: "neighborhood",
};

function describeTypes(geoTypes: readonly GeoType[]): string {
  const words = geoTypes.map((type) => TYPE_WORDS[type]);
  return words.length <= 1 ? (words[0] ?? "boundary") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}
