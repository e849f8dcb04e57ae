import { LOOKUP, PROPERTY_SEARCH } from "../data/endpoints";
import { PROPERTY_DETAILS } from "../data/batchedEndpoints";
import { ApiError } from "../api/errors";
import { bodyRange } from "../api/requestFacts";
import { geoTypeValues, type components } from "../api/schema";
import type { PropertyAttributes } from "../data/dataLayer";
import { recordsToTable } from "../tables/records";
import { readMembers } from "./args/contractOptions";
import {
  LOOKUP_CAP,
  LOOKUP_DEFAULT_MAX,
  LOOKUP_OPTION_MEMBERS,
  LOOKUP_OPTIONS,
  PROPERTIES_CAP,
  PROPERTIES_DEFAULT_MAX,
  PROPERTIES_OPTIONS,
  SEARCH_OPTION_MEMBERS,
} from "./args/propertyOptions";
import { readOptions } from "./args/options";
import { readPropertyFilters } from "./args/propertyFilters";
import { isBlank, plainValue, readId, readInteger, readList, readText } from "./args/scalars";
import { catalogueFields } from "../api/fieldFacts";
import { readHeaders } from "./args/headers";
import {
  firstArgumentOf,
  isIdText,
  readPlaceList,
  resolveBoundary,
  resolveProperty,
} from "./args/nameResolver";
import { notInPlan } from "../api/planLimits";
import { readFieldName } from "./args/fieldVocabulary";
import { ArgumentError, toCellError } from "./cellErrors";
import { runCell, type CellSignal } from "./cellCall";
import { cellContext, type CellContext } from "./cellContext";
import { selectColumns, spillFromTable } from "./shape/spill";
import { entityCard, fieldCell, hostHoldsDataTypes, type ResultCell } from "./shape/dataTypes";
import { withFetchedAt } from "./shape/asOfCard";
import { withinResultBudget } from "./shape/resultBudget";
import {
  fieldGrid,
  fillBlock,
  fillRecords,
  grid,
  keyedBlock,
  readGrid,
  type KeyedBlock,
} from "./shape/keyedBlock";

/** A field of the record by its name or a word the contract gives it (the export's avg_rent is asking_rent). */
function fieldValue(record: PropertyAttributes, typed: string): ResultCell {
  const attributes = record as unknown as Record<string, unknown>;
  if (typed in attributes) return fieldCell(attributes[typed], typed);
  // The service leaves out the fields of a higher tier (ownership and sale fields: pro-plus, openapi.yaml x-tier).
  const left = outOfPlan(record);
  const offered = [...Object.keys(attributes), ...left.keys()];
  const field = readFieldName(typed, offered, `Unknown property field "${typed}"`);
  const tier = left.get(field);
  if (tier !== undefined) throw notInPlan(tier, `${field} needs the ${tier} tier`);
  return fieldCell(attributes[field], field);
}

function safelyCell(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    return toCellError(error);
  }
}

const ONE_WHOLE_RECORD =
  "field: name a field (or several across a row) for several ids; a whole record is for one id.";

/** The fields of a higher tier the service left out of a record (ownership and sale fields: pro-plus). */
function outOfPlan(record: PropertyAttributes): Map<string, string> {
  const attributes = record as unknown as Record<string, unknown>;
  return new Map(
    Object.entries(catalogueFields("property")).flatMap(([field, facts]) =>
      facts.tier !== undefined && !(field in attributes) ? [[field, facts.tier] as const] : [],
    ),
  );
}

/** A property's card, with when its record was fetched (`fetched_at`). */
function propertyCard(record: PropertyAttributes, storedAt: number): Excel.EntityCellValue {
  return entityCard(
    withFetchedAt(record as unknown as Record<string, unknown>, storedAt),
    "property_name",
    outOfPlan(record),
  );
}

/**
 * Without a field: the whole record. Where the host holds data types, an entity card per id (every field, read
 * with `=A1.asking_rent`); elsewhere one id spills its fields as [field, value] rows.
 */
function wholeRecords(ids: number[][], records: ReadonlyMap<number, PropertyAttributesOrError>): unknown[][] {
  if (hostHoldsDataTypes()) return cardsThatFit(fillRecords(ids, (id) => cardOf(records, id)));
  const cells = ids.flat();
  if (cells.length > 1) throw new ArgumentError(ONE_WHOLE_RECORD);
  const record = recordOf(records, cells[0] as number);
  return [...Object.keys(record), ...outOfPlan(record).keys()].map((name) => [
    name,
    safelyCell(() => fieldValue(record, name)),
  ]);
}

/**
 * A block of cards as it fits in one result: a card is about 7.5 KB, so some 500 fit in Excel's 5 MB for a
 * function's payload; the cards past them are #N/A, saying how many and how to get them.
 */
function cardsThatFit(cards: unknown[][]): unknown[][] {
  return withinResultBudget(
    cards,
    (leftOut, total) =>
      `${leftOut} of ${total} cards left out: one formula's result is limited to 5 MB. Name fields (such as "asking_rent,unit_count") or split the ids over several formulas.`,
  );
}

/** One id's record, or the error the service gave for it (not found when it gave nothing). */
function recordOf(records: ReadonlyMap<number, PropertyAttributesOrError>, id: number): PropertyAttributes {
  const record = records.get(id);
  if (!record || record instanceof ApiError)
    throw record ?? new ApiError("not_found", `Property ${id} not found.`);
  return record.value;
}

type PropertyAttributesOrError = { value: PropertyAttributes; storedAt: number } | ApiError;

/** The card of a property of the records, with when its record was fetched. */
function cardOf(records: ReadonlyMap<number, PropertyAttributesOrError>, id: number): Excel.EntityCellValue {
  const record = recordOf(records, id);
  return propertyCard(record, (records.get(id) as { storedAt: number }).storedAt);
}

/**
 * A property's field, e.g. its asking rent. Either argument may be a range: ids down a column and fields
 * across a row give a block with one row per id and one column per field. Many cells share one request.
 * Without a field, the whole record: an entity card where Excel holds data types, else [field, value] rows.
 * @customfunction PROPERTY
 * @helpurl https://localhost:3000/help.html#rent-property
 * @cancelable
 * @requiresAddress
 * @param propertyId A property id, name or street address, optionally with its city and/or state ("Austin Oaks, Austin", "1200 Elm St, TX"), or a range of them.
 * @param [field] A field name such as "asking_rent", "unit_count", "year_built" (or a word the contract gives one: "avg_rent" is asking_rent), or several as a range or comma-separated text; empty for the whole record.
 * @param [invocation] Custom function invocation.
 * @returns The value, a block of values (ids by fields), or the whole record.
 */
export function property(
  propertyId: unknown[][],
  field?: unknown[][],
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, (cellSignal) => {
    const idGrid = grid(propertyId);
    const block = keyedBlock(idGrid, fieldGrid(field), "id");
    if (!idGrid.every((row) => row.every(isIdText))) return namedProperties(idGrid, block, cellSignal);
    const ids = readGrid(idGrid, readId, "property_id");
    const { data, call } = cellContext(cellSignal);
    const wanted = ids.flat();
    // What memory holds is answered at once, without waiting: a recalculation's cells end in the same turn.
    const known = data.knownMany(PROPERTY_DETAILS, {}, wanted, call);
    if (known) return propertyResult(ids, block, known.records);
    return data
      .readMany(PROPERTY_DETAILS, {}, wanted, call)
      .then(({ records }) => propertyResult(ids, block, records));
  });
}

/**
 * RENT.PROPERTY with names among the ids: each distinct name resolved once (see nameResolver.ts); a name that
 * resolves to nothing, or to several, is that cell's error and the other cells keep their values.
 */
async function namedProperties(
  idGrid: unknown[][],
  block: KeyedBlock,
  cellSignal: CellSignal,
): Promise<unknown[][]> {
  const context = cellContext(cellSignal);
  const given = [...new Set(idGrid.flat().map(plainValue))];
  const settled = await Promise.allSettled(
    given.map((value) => resolveProperty(value, context, firstArgumentOf("property_id", "RENT.PROPERTY"))),
  );
  const resolved = new Map(given.map((value, index) => [value, settled[index]]));
  const keys = idGrid.map((row) => row.map((value) => resolved.get(plainValue(value))));
  const wanted = settled.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  const { records } = await context.data.readMany(PROPERTY_DETAILS, {}, wanted, context.call);
  const idOf = (key: PromiseSettledResult<number> | undefined): number => {
    if (key?.status !== "fulfilled") throw key?.reason ?? new ApiError("not_found", "No such property.");
    return key.value;
  };
  if (block.wholeRecord) {
    if (keys.flat().length === 1) return wholeRecords([[idOf(keys[0]?.[0])]], records);
    if (!hostHoldsDataTypes()) throw new ArgumentError(ONE_WHOLE_RECORD);
    return cardsThatFit(fillRecords(keys, (key) => cardOf(records, idOf(key))));
  }
  return fillBlock(keys, block, (key, name) => fieldValue(recordOf(records, idOf(key)), name));
}

function propertyResult(
  ids: number[][],
  block: KeyedBlock,
  records: ReadonlyMap<number, PropertyAttributesOrError>,
): unknown[][] {
  if (block.wholeRecord) return wholeRecords(ids, records);
  return fillBlock(ids, block, (id, name) => fieldValue(recordOf(records, id), name));
}

const DEFAULT_PROPERTY_FIELDS = [
  "property_id",
  "property_name",
  "address",
  "city",
  "state",
  "zip",
  "property_class",
  "unit_count",
  "year_built",
  "asking_rent",
  "net_effective_rent",
  "leased_percent",
];

/** The largest page property search answers (its `per_page` maximum): fewest requests for a long list. */
const SEARCH_PAGE_SIZE = bodyRange("searchProperties", "per_page").maximum;

type Geometry = components["schemas"]["GeoJsonGeometry"];

/** Boundary ids (a range or list), GeoJSON geometry text, or nothing for all areas. The service checks the shape. */
async function readArea(
  value: unknown,
  context: CellContext,
): Promise<{ geo_boundary_ids?: number[]; geometry?: Geometry }> {
  if (typeof value === "string" && value.trim().startsWith("{")) {
    let geometry: unknown;
    try {
      geometry = JSON.parse(value);
    } catch {
      throw new ArgumentError("area: the GeoJSON text is not valid JSON.");
    }
    const type = (geometry as { type?: unknown }).type;
    if (type !== "Polygon" && type !== "MultiPolygon") {
      throw new ArgumentError('area: GeoJSON must be a geometry of type "Polygon" or "MultiPolygon".');
    }
    return { geometry: geometry as Geometry };
  }
  // Ids or names ("Austin, TX"), each name resolved to the one boundary named exactly so (nameResolver.ts).
  const given = readPlaceList(value, "area");
  const ids = await Promise.all(
    given.map(
      async (item) =>
        (await resolveBoundary(item, context, firstArgumentOf("area", "RENT.PROPERTIES"), geoTypeValues)).id,
    ),
  );
  return ids.length > 0 ? { geo_boundary_ids: ids } : {};
}

/**
 * Properties in one or more boundaries, inside a GeoJSON polygon, or anywhere, with the fields you choose.
 * Each page is one request and every property returned counts toward the account's bulk export quota.
 * @customfunction PROPERTIES
 * @helpurl https://localhost:3000/help.html#rent-properties
 * @cancelable
 * @requiresAddress
 * @param area Boundaries by id or exact name, optionally with the state (a range or "Austin, TX; 1234"), GeoJSON polygon text, or empty for all areas.
 * @param [fields] Field names as a range or comma-separated text; a standard set when omitted.
 * @param [options] Name/value pairs: ${options PROPERTIES}; max_results is at most ${own PROPERTIES_CAP} (default ${own PROPERTIES_DEFAULT_MAX}).
 * @param [headers] "ids" (default): columns headed by their field ids, the names formulas take; "names": by readable names such as "${label market.rent_avg_t30}".
 * @param [invocation] Custom function invocation.
 * @returns A header row and one row per property.
 */
export async function properties(
  area: unknown[][],
  fields?: unknown[][],
  options?: unknown[][],
  headers?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const areaValue = Array.isArray(area) && area.length === 1 && area[0]?.length === 1 ? area[0][0] : area;
    const wanted = readList(fields, "fields", readText);
    const option = readOptions(options, PROPERTIES_OPTIONS);
    // Every option is read before the area's names are resolved: a bad one costs no request.
    const filters = { ...readPropertyFilters(option), ...readMembers(option, SEARCH_OPTION_MEMBERS) };
    const maxResults = isBlank(option.get("max_results"))
      ? PROPERTIES_DEFAULT_MAX
      : readInteger(option.get("max_results"), "max_results", 1, PROPERTIES_CAP);
    const where = await readArea(areaValue, cellContext(cellSignal, option.get("account")));
    const body = { ...where, ...filters };
    const { data, call } = cellContext(cellSignal, option.get("account"));
    const perPage = Math.min(SEARCH_PAGE_SIZE, maxResults);
    const found = await data.readAll(PROPERTY_SEARCH, body, call, { perPage, maxItems: maxResults });
    const records = found.value.map((entry) => entry.attributes as unknown as Record<string, unknown>);
    const table = recordsToTable(records);
    const columns = wanted.length > 0 ? wanted : DEFAULT_PROPERTY_FIELDS;
    return spillFromTable(
      selectColumns(table, columns, "fields"),
      "No property matches this area and these filters.",
      { choice: readHeaders(headers), record: "property" },
    );
  });
}

/**
 * Property ids that match filters (all pages, up to a cap), as a column: feed it to RENT.PROPERTY.
 * @customfunction LOOKUP
 * @helpurl https://localhost:3000/help.html#rent-lookup
 * @cancelable
 * @requiresAddress
 * @param [options] Name/value pairs: ${options LOOKUP}; latitude and longitude go together, radius is in ${unit lookupProperties.radius} around them (default ${default lookupProperties.radius}); max_results is at most ${own LOOKUP_CAP} (default ${own LOOKUP_DEFAULT_MAX}).
 * @param [invocation] Custom function invocation.
 * @returns A header row [property_id] and one row per matching property.
 */
export async function lookup(
  options?: unknown[][],
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const option = readOptions(options, LOOKUP_OPTIONS);
    const query = readMembers(option, LOOKUP_OPTION_MEMBERS);
    if ((query.latitude === undefined) !== (query.longitude === undefined)) {
      throw new ArgumentError("latitude and longitude go together: give both for a radius search.");
    }
    const maxResults = isBlank(option.get("max_results"))
      ? LOOKUP_DEFAULT_MAX
      : readInteger(option.get("max_results"), "max_results", 1, LOOKUP_CAP);
    const { data, call } = cellContext(cellSignal, option.get("account"));
    const ids = (await data.readAll(LOOKUP, query, call, { maxItems: maxResults })).value;
    if (ids.length === 0) throw new ApiError("not_found", "No property matches these filters.");
    return [["property_id"], ...ids.map((id) => [id])];
  });
}
