import { GEO_SEARCH } from "../data/endpoints";
import { recordsToTable } from "../tables/records";
import { geoTypeValues } from "../api/schema";
import { readGeoTypes } from "./args/geoTypes";
import { isBlank, isEmptyArgument, readInteger, readText } from "./args/scalars";
import { resolveBoundary, resolvePlaceName, type NameSite } from "./args/nameResolver";

/** RENT.BOUNDARY gives the id itself: a name it cannot resolve says which id to type. */
const BOUNDARY_SITE: NameSite = { argument: "name", formula: String };

/** The boundaries' own search takes the id of the area they cross last. */
const INTERSECTING_SITE: NameSite = {
  argument: "intersecting_id",
  formula: (id) => `=RENT.BOUNDARIES("*", , , ${id})`,
};
import { runCell } from "./cellCall";
import { cellContext } from "./cellContext";
import { spillFromTable } from "./shape/spill";
import { bodyDefaults, bodyRange } from "../api/requestFacts";

const GEO_SEARCH_DEFAULTS = bodyDefaults("searchGeoBoundaries");
const GEO_SEARCH_LIMIT = bodyRange("searchGeoBoundaries", "limit");

/**
 * Searches geographic boundaries (MSAs, submarkets, counties, ZIP codes, places, neighborhoods) by name.
 * @customfunction BOUNDARIES
 * @helpurl https://localhost:3000/help.html#rent-boundaries
 * @cancelable
 * @requiresAddress
 * @param search Text to find: a part of the name or the start of its words; "*" for all.
 * @param [geoTypes] Boundary types to include (${values GeoType}), as a range or comma-separated text; all when omitted.
 * @param [limit] Most rows to return, ${range searchGeoBoundaries.limit} (default ${default searchGeoBoundaries.limit}).
 * @param [intersectingId] Only boundaries that intersect this boundary (its id or name).
 * @param [invocation] Custom function invocation.
 * @returns A header row and one row per boundary, best match first.
 */
export async function boundaries(
  search: unknown,
  geoTypes?: unknown[][],
  limit?: unknown,
  intersectingId?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const query = isBlank(search) ? "*" : readText(search, "search");
    const types = readGeoTypes(geoTypes, "geo_types");
    const context = cellContext(cellSignal);
    const body = {
      query,
      geo_type: types.length > 0 ? types : undefined,
      limit: isBlank(limit)
        ? GEO_SEARCH_DEFAULTS.limit
        : readInteger(limit, "limit", GEO_SEARCH_LIMIT.minimum, GEO_SEARCH_LIMIT.maximum),
      intersects_geo_boundary_id: isEmptyArgument(intersectingId)
        ? undefined
        : (await resolveBoundary(intersectingId, context, INTERSECTING_SITE, geoTypeValues)).id,
    };
    const { data, call } = context;
    const results = (await data.read(GEO_SEARCH, body, call)).value.data;
    const records = results.map(({ attributes: { centroid, ...rest } }) => ({
      ...rest,
      latitude: centroid[0],
      longitude: centroid[1],
    }));
    return spillFromTable(recordsToTable(records), `No boundary matches "${query}".`);
  });
}

/**
 * The id of the one boundary named so, for use in RENT.MARKET, RENT.GEOFORECAST and others.
 * @customfunction BOUNDARY
 * @helpurl https://localhost:3000/help.html#rent-boundary
 * @cancelable
 * @requiresAddress
 * @param name The boundary's exact name, optionally with its state, e.g. "Austin" or "Arlington, VA" (a metro by its whole name or principal city).
 * @param [geoType] Only this boundary type (${values GeoType}).
 * @param [invocation] Custom function invocation.
 * @returns The boundary id.
 */
export async function boundary(
  name: unknown,
  geoType?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<number> {
  return runCell(invocation, async (cellSignal) => {
    const query = readText(name, "name").trim();
    const types = readGeoTypes(geoType, "geo_type");
    const context = cellContext(cellSignal);
    const found = await resolvePlaceName(
      query,
      context,
      BOUNDARY_SITE,
      types.length > 0 ? types : geoTypeValues,
    );
    return found.id;
  });
}
