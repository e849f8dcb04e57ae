/**
 * The one resolver of the things a formula names: a market or area, and a property, each by id or by name. An
 * id is taken as it is and costs nothing; a place's name costs one search request, a property's one lookup and
 * its candidates' records (one batched read), and the data layer caches them (geo_search, lookup and details in
 * src/data/cachePolicy.ts), so the same name in a thousand cells or on the next recalculation costs no more.
 * One rule for both: the one named exactly so wins; several, or none, fail saying which there are.
 */
import { ApiError } from "../../api/errors";
import type { PropertyAttributes } from "../../data/dataLayer";
import { GEO_SEARCH, LOOKUP } from "../../data/endpoints";
import { PROPERTY_DETAILS } from "../../data/batchedEndpoints";
import { ArgumentError } from "../cellErrors";
import type { CellContext } from "../cellContext";
import type { GeoType } from "./geoTypes";
import {
  describePlace,
  describeTypes,
  listSome,
  namingOf,
  normalName,
  type PlaceCandidate,
  type PlaceNaming,
} from "./placeNames";
import { readPropertyText } from "./propertyNames";
import { isEmptyArgument, plainValue, readId, readList, readText } from "./scalars";

export interface ResolvedBoundary {
  id: number;
  /** The type of the boundary a name resolved to (unknown for an id). */
  geoType?: GeoType;
}

/** An id as a number or as digits; anything else is a name. */
export const isIdText = (value: unknown) =>
  typeof value === "number" || (typeof value === "string" && /^\s*\d+\s*$/.test(value));

/**
 * Where a name was typed, for the messages of a name that resolves to no place or to several: the argument, and
 * how the formula gives an id there instead (`=RENT.MARKET(1003, …)`, `msa_id=1003`).
 */
export interface NameSite {
  argument: string;
  formula: (id: number) => string;
}

/** A site whose formula takes the id as its first argument. */
export const firstArgumentOf = (argument: string, fn: string): NameSite => ({
  argument,
  formula: (id) => `=${fn}(${id}, …)`,
});

/** A site that is a name=value option. */
export const optionSite = (option: string): NameSite => ({
  argument: option,
  formula: (id) => `${option}=${id}`,
});

/** Places a name search asks for: enough for every place named so, of every type, and the metros named with it. */
const PLACE_CANDIDATES = 25;

/**
 * The one resolver of a market or area asked for by id or by name, for every function that takes one
 * (RENT.MARKET, RENT.MARKETS, RENT.NARRATIVE, RENT.GEOFORECAST, RENT.PROPERTIES, RENT.BOUNDARIES): an id is
 * taken as it is; a name costs one search (cached, so none after) of every type, and resolves to the one place
 * of a type the function takes that is named exactly so ("Arlington, TX", or "Arlington" and a state), else
 * the one metro whose name it begins ("Dallas" for "Dallas-Fort Worth-Arlington, TX"). Several give #VALUE!
 * and none #N/A, each listing the candidates with their type and id and the formula to use; a place of
 * another type, or a metro that only names the city in its name ("Arlington"), is never taken in its stead.
 */
export async function resolveBoundary(
  value: unknown,
  context: CellContext,
  site: NameSite,
  geoTypes: readonly GeoType[],
): Promise<ResolvedBoundary> {
  value = plainValue(value);
  if (isIdText(value)) return { id: readId(value, site.argument) };
  return resolvePlaceName(readText(value, site.argument).trim(), context, site, geoTypes);
}

/** A place by name alone (RENT.BOUNDARY, where digits are a ZIP code's name, not an id): the rule above. */
export async function resolvePlaceName(
  query: string,
  context: CellContext,
  site: NameSite,
  geoTypes: readonly GeoType[],
): Promise<ResolvedBoundary> {
  const inState = splitState(query);
  const body = { query: inState?.name ?? query, limit: PLACE_CANDIDATES };
  const candidates: PlaceCandidate[] = (
    await context.data.read(GEO_SEARCH, body, context.call)
  ).value.data.map(({ attributes }) => ({
    id: attributes.id,
    name: attributes.name,
    geoType: attributes.geo_type,
    placeType: attributes.place_type,
  }));
  const asked = candidates.filter((candidate) => geoTypes.includes(candidate.geoType));
  // The whole text first ("Austin NW" may be a name), then the name in its state.
  const readings: NameInState[] = [{ name: query, state: undefined }, ...(inState ? [inState] : [])];
  for (const reading of readings) {
    const found = namedExactly(asked, reading);
    if (found.length === 1) return resolved(found[0] as PlaceCandidate);
    if (found.length > 1) {
      const shown = found.map(describePlace);
      throw new ArgumentError(
        `${site.argument}: ambiguous: ${found.length} places named "${query}": ${listSome(shown)}. ` +
          `Use the id: ${site.formula((found[0] as PlaceCandidate).id)}.`,
      );
    }
  }
  throw new ApiError("not_found", noPlaceMessage(readings.at(-1) as NameInState, candidates, geoTypes, site));
}

const resolved = (candidate: PlaceCandidate): ResolvedBoundary => ({
  id: candidate.id,
  geoType: candidate.geoType,
});

const inStates = (state: string | undefined, naming: PlaceNaming) => !state || naming.states.includes(state);

/** The places named exactly so, else the metros the name begins: a metro is known by its principal city. */
function namedExactly(candidates: readonly PlaceCandidate[], { name, state }: NameInState): PlaceCandidate[] {
  const wanted = normalName(name);
  const named = (test: (naming: PlaceNaming) => boolean) =>
    candidates.filter((candidate) => {
      const naming = namingOf(candidate);
      return inStates(state, naming) && test(naming);
    });
  const exact = named((naming) => naming.names.includes(wanted));
  return exact.length > 0 ? exact : named((naming) => naming.metroCities[0] === wanted);
}

/**
 * Why a name resolves to no place the function takes, with what the search found instead: the places of that
 * name in other states, of other types (a city), the metros that name it among their cities, and names that
 * contain it; then the formula with the first id of a type the function takes.
 */
function noPlaceMessage(
  { name, state }: NameInState,
  candidates: readonly PlaceCandidate[],
  geoTypes: readonly GeoType[],
  site: NameSite,
): string {
  const wanted = normalName(name);
  const takes = (candidate: PlaceCandidate) => geoTypes.includes(candidate.geoType);
  const listed = new Set<PlaceCandidate>();
  const sentence = (lead: string, found: PlaceCandidate[]) => {
    found.forEach((candidate) => listed.add(candidate));
    return found.length > 0 ? ` ${lead}: ${listSome(found.map(describePlace))}.` : "";
  };
  const elsewhere = state ? namedExactly(candidates.filter(takes), { name, state: undefined }) : [];
  const whereStates = [...new Set(elsewhere.flatMap((candidate) => namingOf(candidate).states))];
  const otherTypes = candidates.filter(
    (candidate) => !takes(candidate) && namedExactly([candidate], { name, state }).length > 0,
  );
  const metros = candidates.filter((candidate) => {
    const naming = namingOf(candidate);
    return naming.metroCities.slice(1).includes(wanted) && inStates(state, naming);
  });
  const text = [
    `No ${describeTypes(geoTypes)} named "${name}"${state ? ` in ${state}` : ""}.`,
    sentence(`"${name}" is in ${whereStates.join(", ") || "another state"}`, elsewhere),
    sentence(`"${name}" is another kind of place`, otherTypes),
    sentence(`"${name}" is a city inside ${metros.length > 1 ? "the metros" : "the metro"}`, metros),
  ].join("");
  const contain = listed.size === 0 ? candidates.filter(takes).slice(0, 3) : [];
  const first = [...listed, ...contain].find(takes);
  return (
    text +
    sentence("Names that contain it", contain) +
    (first ? ` For it, use the id: ${site.formula(first.id)}.` : "")
  );
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

interface NameInState {
  name: string;
  /** Upper case, as the service writes state codes. */
  state: string | undefined;
}

/** "Austin, TX", "Austin TX", "austin, tx": a name and a two-letter state code (the contract's form of one). */
function splitState(query: string): { name: string; state: string } | undefined {
  const match = /^(.*?\S)(\s*,\s*|\s+)([A-Za-z]{2})$/.exec(query);
  if (!match?.[1] || !match[3]) return undefined;
  return { name: match[1], state: match[3].toUpperCase() };
}

/** Ids a property search asks for: enough to find the exact name among names that contain it. */
const NAME_CANDIDATES = 10;

/**
 * A property asked for by id, by name or by street address, either optionally followed by its city and/or
 * state ("Mill Creek, Austin", "Mill Creek, TX", "1200 Elm St, Austin, TX"): one lookup (the service matches
 * names and addresses in part), then the candidates' records (one batched read, cached, that a property's own
 * cell reads anyway) to keep only the one named, or at the address, exactly so, in any case. Several give
 * #VALUE! and none #N/A, each listing candidates with id, name and address and the formula to use.
 */
export async function resolveProperty(value: unknown, context: CellContext, site: NameSite): Promise<number> {
  value = plainValue(value);
  // An empty cell is a missing id: its message says so rather than asking for text.
  if (isIdText(value) || isEmptyArgument(value)) return readId(value, site.argument);
  const typed = readPropertyText(readText(value, site.argument));
  const query = { ...typed.filters, per_page: NAME_CANDIDATES };
  const answer = (await context.data.read(LOOKUP, query, context.call)).value;
  const ids = answer.data;
  const { records } =
    ids.length > 0
      ? await context.data.readMany(PROPERTY_DETAILS, {}, ids, context.call)
      : { records: new Map() };
  const recordOf = (id: number) => {
    const record = records.get(id);
    return record && !(record instanceof ApiError) ? (record.value as PropertyAttributes) : undefined;
  };
  const exact = ids.filter((id) => typed.isExactly(recordOf(id)));
  if (exact.length === 1) return exact[0] as number;
  const listed = (found: readonly number[]) =>
    listSome(found.map((id) => describeProperty(id, recordOf(id))));
  const formula = (found: readonly number[]) => ` Use the id: ${site.formula(found[0] as number)}.`;
  if (exact.length > 1) {
    throw new ArgumentError(
      `${site.argument}: ambiguous: ${exact.length} properties ${typed.described}: ${listed(exact)}.${formula(exact)}`,
    );
  }
  const total = Math.max(answer.pagination?.total_count ?? 0, ids.length);
  const partial =
    ids.length === 0
      ? " Add or drop the city or state, or find ids with RENT.LOOKUP."
      : ` ${total} ${total === 1 ? "contains" : "contain"} it` +
        (total > ids.length ? ` (the first ${ids.length}: ${listed(ids)})` : `: ${listed(ids)}`) +
        `.${formula(ids)}`;
  throw new ApiError("not_found", `No property ${typed.described}.${partial}`);
}

/** "116724 Mill Creek (12 Oak St, Austin, TX)": what tells a candidate property apart. */
function describeProperty(id: number, record: PropertyAttributes | undefined): string {
  const where = [record?.address, record?.city, record?.state].filter(
    (part): part is string => typeof part === "string" && part !== "",
  );
  const name = typeof record?.property_name === "string" ? ` ${record.property_name}` : "";
  return `${id}${name}${where.length > 0 ? ` (${where.join(", ")})` : ""}`;
}
