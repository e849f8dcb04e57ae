/**
 * The one resolver of the things a formula names: a market or area, and a property, each by id or by name. An
 * id is taken as it is and costs nothing; a name costs one search request (two for a property name several
 * properties share), and the data layer caches the search (geo_search and lookup in src/data/cachePolicy.ts), so
 * the same name in a thousand cells or on the next recalculation costs no more.
 */
import { ApiError } from "../../api/errors";
import type { PropertyAttributes } from "../../data/dataLayer";
import { GEO_SEARCH, LOOKUP } from "../../data/endpoints";
import { MARKET_METRICS, PROPERTY_DETAILS } from "../../data/batchedEndpoints";
import { ArgumentError } from "../cellErrors";
import type { CellContext } from "../cellContext";
import { marketGeoTypeValues, type components } from "../../api/schema";
import type { GeoType } from "./geoTypes";
import { isEmptyArgument, plainValue, readId, readList, readText } from "./scalars";

type MarketGeoType = components["schemas"]["MarketGeoType"];

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
 * property count and type) is used. A name with a state ("Austin, TX", "Austin TX") is matched in that state
 * (see `resolveInState`).
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
  const inState = splitState(query);
  if (inState && geoTypes.some(isMarketType)) return resolveInState(query, inState, context, geoTypes);
  const best = await bestMatch(query, context, geoTypes);
  if (!best) throw new ApiError("not_found", `No ${describeTypes(geoTypes)} matches "${query}".`);
  return best;
}

async function bestMatch(
  query: string,
  context: CellContext,
  geoTypes: readonly GeoType[],
): Promise<ResolvedBoundary | undefined> {
  const body = { query, geo_type: [...geoTypes], limit: 1 };
  const best = (await context.data.read(GEO_SEARCH, body, context.call)).value.data[0];
  return best && { id: best.attributes.id, geoType: best.attributes.geo_type };
}

/**
 * Markets or areas given as a range or as a list in text (ids or names), with a name and its state kept
 * together: "Austin, TX; 1003" is two items, as "Austin, TX, Dallas, TX" is two.
 */
export function readPlaceList(value: unknown, argument: string): unknown[] {
  const cells = Array.isArray(value) ? (value as unknown[]).flat(2) : [value];
  return cells.flatMap((cell) =>
    readList(cell, argument, (item) => item).reduce<unknown[]>((items, item) => {
      const previous = items.at(-1);
      const isState = typeof item === "string" && /^\s*[A-Za-z]{2}\s*$/.test(item);
      if (isState && typeof previous === "string" && !isIdText(previous) && !splitState(previous.trim()))
        items[items.length - 1] = `${previous.trim()}, ${item.trim()}`;
      else items.push(item);
      return items;
    }, []),
  );
}

const isMarketType = (type: GeoType): type is MarketGeoType =>
  (marketGeoTypeValues as readonly string[]).includes(type);

interface NameInState {
  name: string;
  /** Upper case, as the service writes state codes. */
  state: string;
  /** Whether a comma set the state apart: without one, "Austin NW" may also be a whole name. */
  comma: boolean;
}

/** "Austin, TX", "Austin TX", "austin, tx": a name and a two-letter state code (the contract's form of one). */
function splitState(query: string): NameInState | undefined {
  const match = /^(.*?\S)(\s*,\s*|\s+)([A-Za-z]{2})$/.exec(query);
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  return { name: match[1], state: match[3].toUpperCase(), comma: match[2].includes(",") };
}

/** Boundaries of a name whose states are compared with the state asked for. */
const STATE_CANDIDATES = 10;

/**
 * A name in a state. The boundary search answers names without states, so the state comes from the markets'
 * own records (`geo_states` of /explore_markets, batched per type and cached, and the record RENT.MARKET then
 * reads anyway): the best of the name's markets in that state is taken. Only markets have such records, so
 * a function that also takes other areas gets the market (an MSA or submarket) of that name and state. With no
 * market of that name in that state the answer says where the name is; without a comma the whole text is also
 * tried as a name first ("Austin NW").
 */
async function resolveInState(
  query: string,
  { name, state, comma }: NameInState,
  context: CellContext,
  geoTypes: readonly GeoType[],
): Promise<ResolvedBoundary> {
  const types = geoTypes.filter(isMarketType);
  const body = { query: name, geo_type: types, limit: STATE_CANDIDATES };
  const candidates = (await context.data.read(GEO_SEARCH, body, context.call)).value.data.map(
    ({ attributes }) => ({ id: attributes.id, geoType: attributes.geo_type as MarketGeoType }),
  );
  const statesOf = new Map<number, readonly string[]>();
  let failure: ApiError | undefined;
  for (const geoType of types) {
    const ids = candidates.filter((candidate) => candidate.geoType === geoType).map(({ id }) => id);
    if (ids.length === 0) continue;
    const { records } = await context.data.readMany(MARKET_METRICS, { geoType }, ids, context.call);
    for (const [id, record] of records) {
      if (record instanceof ApiError) failure ??= record;
      else statesOf.set(id, record.value.geo_states ?? []);
    }
  }
  const match = candidates.find(({ id }) => statesOf.get(id)?.includes(state));
  if (match) return match;
  if (!comma) {
    const whole = await bestMatch(query, context, geoTypes);
    if (whole) return whole;
  }
  if (statesOf.size === 0 && failure) throw failure;
  const where = [...new Set(candidates.flatMap(({ id }) => statesOf.get(id) ?? []))];
  const what = describeTypes(types);
  if (where.length === 0) throw new ApiError("not_found", `No ${what} matches "${name}" in ${state}.`);
  throw new ApiError("not_found", `No ${what} named ${name} in ${state}; ${name} is in ${where.join(", ")}.`);
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
  // The lookup answers ids only (the contract's /properties/lookup), so the exact name among names that contain
  // it, and the address that tells candidates apart, are in the records: one batched bulk details read of at
  // most NAME_CANDIDATES, charged to the bulk export quota once and cached for the next cell and recalculation.
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
