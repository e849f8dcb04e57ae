/**
 * The one resolver of the things a formula names: a market or area, and a property, each by id or by name. An
 * id is taken as it is and costs nothing; a name costs one search request (two for a property name several
 * properties share), and the data layer caches the search (geo_search and lookup in src/data/cachePolicy.ts), so
 * the same name in a thousand cells or on the next recalculation costs no more.
 */
import { ApiError } from "../../api/errors";
import type { PropertyAttributes } from "../../data/dataLayer";
import { GEO_SEARCH, LOOKUP } from "../../data/endpoints";
import { PROPERTY_DETAILS } from "../../data/batchedEndpoints";
import { ArgumentError } from "../cellErrors";
import type { CellContext } from "../cellContext";
import type { GeoType } from "./geoTypes";
import { isEmptyArgument, plainValue, readId, readText } from "./scalars";

export interface ResolvedBoundary {
  id: number;
  /** The type of the boundary a name resolved to (unknown for an id). */
  geoType?: GeoType;
}

/** An id as a number or as digits; anything else is a name. */
export const isIdText = (value: unknown) =>
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
  return { id: best.attributes.id, geoType: best.attributes.geo_type };
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

/** Ids a property name search asks for: enough to find the exact name among names that contain it. */
const NAME_CANDIDATES = 10;
/** Candidates whose id and address an ambiguous name's message lists (each costs a property record). */
const LISTED_CANDIDATES = 3;

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function candidateText(id: number, record: PropertyAttributes | undefined): string {
  const where = [record?.address, record?.city].filter((part) => typeof part === "string" && part !== "");
  return where.length > 0 ? `${id} (${where.join(", ")})` : String(id);
}

/**
 * A property asked for by id or by name. The service matches names in part ("Oaks" finds "Austin Oaks II"), so
 * one match is taken; among several the one whose whole name is the name typed; otherwise the name is ambiguous
 * and the message lists candidates with their id and address (their records are cached for the next call).
 */
export async function resolveProperty(
  value: unknown,
  context: CellContext,
  argument: string,
): Promise<number> {
  value = plainValue(value);
  // An empty cell is a missing id: its message says so rather than asking for text.
  if (isIdText(value) || isEmptyArgument(value)) return readId(value, argument);
  const name = readText(value, argument).trim();
  const answer = (
    await context.data.read(LOOKUP, { property_name: name, per_page: NAME_CANDIDATES }, context.call)
  ).value;
  const ids = answer.data;
  if (ids.length === 0) {
    throw new ApiError(
      "not_found",
      `No property named "${name}" (names are matched in part). RENT.LOOKUP finds ids by city or address.`,
    );
  }
  if (ids.length === 1) return ids[0] as number;
  const { records } = await context.data.readMany(PROPERTY_DETAILS, {}, ids, context.call);
  const recordOf = (id: number) => {
    const record = records.get(id);
    return record && !(record instanceof ApiError) ? record.value : undefined;
  };
  const exact = ids.filter((id) => sameName(recordOf(id)?.property_name ?? "", name));
  if (exact.length === 1) return exact[0] as number;
  const candidates = exact.length > 1 ? exact : ids;
  const count = exact.length > 1 ? exact.length : Math.max(answer.pagination?.total_count ?? 0, ids.length);
  const listed = candidates.slice(0, LISTED_CANDIDATES).map((id) => candidateText(id, recordOf(id)));
  const more = count > listed.length ? `, and ${count - listed.length} more` : "";
  const named = exact.length > 1 ? "named" : "whose name contains";
  throw new ArgumentError(
    `${argument}: ambiguous: ${count} properties ${named} "${name}"; use the id: ${listed.join("; ")}${more}.`,
  );
}
