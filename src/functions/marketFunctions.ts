import { EXPLORE_MARKETS, NARRATIVES } from "../data/endpoints";
import {
  DEFAULT_SECTION,
  NARRATIVE_SECTIONS,
  SECTION_CHOICES,
  type NarrativeSection,
} from "./args/narrativeSections";
import { MARKET_METRICS } from "../data/batchedEndpoints";
import { ApiError } from "../api/errors";
import { catalogueFields, factsIn } from "../api/fieldFacts";
import { isLimitedMarket, notInPlan, salesSectionText } from "../api/planLimits";
import { marketGeoTypeValues } from "../api/schema";
import { recordsToTable } from "../tables/records";
import { DEFAULT_MARKETS_GEO_TYPE, type MarketGeoType } from "./args/geoTypes";
import { firstArgumentOf, optionSite, readPlaceList, resolveBoundary } from "./args/nameResolver";
import { readHeaders } from "./args/headers";
import { readOptions } from "./args/options";
import { MARKETS_DEFAULTS, MARKETS_DIRECTIONS, MARKETS_LIMIT, MARKETS_OPTIONS } from "./args/marketsOptions";
import { PROPERTY_FILTER_OPTIONS, readPropertyFilters } from "./args/propertyFilters";
import {
  isBlank,
  isEmptyArgument,
  plainValue,
  readChoice,
  readInteger,
  readList,
  readNumber,
  readText,
} from "./args/scalars";
import { readFieldName } from "./args/fieldVocabulary";
import { ArgumentError, toCellError } from "./cellErrors";
import { runCell } from "./cellCall";
import { cellContext, type CellContext } from "./cellContext";
import { selectColumns, spillFromTable } from "./shape/spill";
import { entityCard, fieldCell, hostHoldsDataTypes } from "./shape/dataTypes";
import { withFetchedAt } from "./shape/asOfCard";
import { fieldGrid, fillBlock, fillRecords, grid, keyedBlock } from "./shape/keyedBlock";

/** Metrics the service used to return; a formula still asking for one is told why it gets nothing. */
const REMOVED_METRICS: Record<string, string> = {
  absorption_rate_avg_t30:
    "absorption_rate_avg_t30 is no longer provided by the service (removed in v1.12.0).",
};

const readMarketGeoType = (value: unknown, argument: string): MarketGeoType =>
  readChoice(value, argument, marketGeoTypeValues);

const MARKET_SITE = firstArgumentOf("boundary", "RENT.MARKET");

/** A market given as an id, or as a name of one MSA or submarket. */
async function resolveMarket(
  value: unknown,
  context: CellContext,
): Promise<{ id: number; geoType?: MarketGeoType }> {
  const found = await resolveBoundary(value, context, MARKET_SITE, marketGeoTypeValues);
  return { id: found.id, geoType: found.geoType as MarketGeoType | undefined };
}

/**
 * A metric's value, or the plan it needs when the caller's plan left it out: below pro the service answers with
 * the limited record (every pro metric null), which must not read as missing data or as zero.
 */
function planned(record: Record<string, unknown>, metric: string): unknown {
  const value = record[metric];
  const tier = factsIn("market", metric)?.tier;
  if ((value === null || value === undefined) && tier !== undefined && isLimitedMarket(record))
    throw notInPlan(tier, `${metric} needs the ${tier} tier`);
  return value;
}

/** The metrics a limited record (below pro) leaves null, with the tier each needs. */
function outOfPlan(record: Record<string, unknown>): Map<string, string> {
  if (!isLimitedMarket(record)) return new Map();
  return new Map(
    Object.keys(record).flatMap((metric) => {
      const tier = factsIn("market", metric)?.tier;
      return tier !== undefined && record[metric] === null ? [[metric, tier] as const] : [];
    }),
  );
}

/** A spilled cell as it is, or the plan error its metric gives in a limited record. */
function safelyPlanned(record: Record<string, unknown>, metric: string, cell: unknown): unknown {
  try {
    planned(record, metric);
    return cell;
  } catch (error) {
    return toCellError(error);
  }
}

/**
 * A metric of `offered` by its name or a word the contract gives it (`x-field-synonyms`: asking_rent is
 * rent_avg_t30); a removed metric says so, an unknown one suggests over every name and synonym.
 */
function metricName(metric: string, offered: readonly string[]): string {
  const removed = REMOVED_METRICS[metric];
  if (removed) throw new ArgumentError(removed);
  return readFieldName(metric, offered, `Unknown metric "${metric}"`);
}

/** The metrics a formula may name before any record is read: every metric of the contract's market record. */
const CONTRACT_METRICS = Object.keys(catalogueFields("market"));

/**
 * Without a metric: the whole record. Where the host holds data types, an entity card per market
 * (`=A1.rent_avg_t30`); elsewhere one market spills its metrics as [metric, value] rows.
 */
function wholeMarkets(
  boundaries: unknown[][],
  recordOf: (boundary: unknown) => Record<string, unknown>,
  storedAtOf: (boundary: unknown) => number,
): unknown[][] {
  if (hostHoldsDataTypes())
    return fillRecords(boundaries, (boundary) => {
      const record = recordOf(boundary);
      // Its as-of, as a property card's: when the answer was fetched.
      return entityCard(withFetchedAt(record, storedAtOf(boundary)), "name", outOfPlan(record));
    });
  const cells = boundaries.flat();
  if (cells.length > 1) {
    throw new ArgumentError(
      "metric: name a metric (or several across a row) for several markets; a whole record is for one market.",
    );
  }
  const record = recordOf(cells[0]);
  return Object.keys(record).map((name) => [
    name,
    safelyPlanned(record, name, fieldCell(record[name], name)),
  ]);
}

const MARKET_OPTIONS = ["geo_type", "account", ...PROPERTY_FILTER_OPTIONS] as const;

/**
 * A market metric of an MSA or submarket, e.g. the 30-day average asking rent. Either argument may be a
 * range: markets (ids or names) down a column and metrics across a row give one row per market and one
 * column per metric, from one batched request. Without a metric, the whole record: an entity card where Excel
 * holds data types (`=A1.rent_avg_t30`), else [metric, value] rows.
 * @customfunction MARKET
 * @helpurl https://localhost:3000/help.html#rent-market
 * @cancelable
 * @requiresAddress
 * @param boundary The MSA or submarket: its id or its exact name such as "Austin" or "Austin, TX" (a metro by its whole name or principal city), or a range of them.
 * @param [metric] The metric's name, e.g. "rent_avg_t30", "occupancy" metrics, "median_income" (the function reference lists the market metrics), or several as a range or comma-separated text; empty for the whole record.
 * @param [options] Name/value pairs (a two-column range or "name=value; ..."): geo_type (${values MarketGeoType}), account, and property filters ${options PROPERTY_FILTERS}.
 * @param [invocation] Custom function invocation.
 * @returns The metric's value, a block of values (markets by metrics), or the whole record.
 */
export async function market(
  boundary: unknown[][],
  metric?: unknown[][],
  options?: unknown[][],
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const boundaries = grid(boundary);
    const block = keyedBlock(boundaries, fieldGrid(metric), "market");
    const option = readOptions(options, MARKET_OPTIONS);
    const geoType = isBlank(option.get("geo_type"))
      ? undefined
      : readMarketGeoType(option.get("geo_type"), "geo_type");
    const propertyFilters = readPropertyFilters(option);
    const context = cellContext(cellSignal, option.get("account"));
    // Each market once, all at the same time: names are searched (cached), records join one batched call.
    // A blank cell in a range of markets (room left for more) gives a blank row, not an error.
    const unique = [...new Set(boundaries.flat().map(plainValue))].filter(
      (given) => !block.keysAreBlock || !isEmptyArgument(given),
    );
    const settled = await Promise.allSettled(
      unique.map(async (given) => {
        const target = await resolveMarket(given, context);
        const marketOptions = { geoType: geoType ?? target.geoType, propertyFilters };
        const { records } = await context.data.readMany(
          MARKET_METRICS,
          marketOptions,
          [target.id],
          context.call,
        );
        const answer = records.get(target.id);
        if (answer === undefined || answer instanceof ApiError) throw answer;
        return answer;
      }),
    );
    const records = new Map(unique.map((given, index) => [given, settled[index]]));
    const fetchedOf = (given: unknown) => {
      const outcome = records.get(plainValue(given));
      if (outcome?.status !== "fulfilled")
        throw outcome?.reason ?? new ApiError("not_found", "No such market.");
      return outcome.value;
    };
    const recordOf = (given: unknown): Record<string, unknown> =>
      fetchedOf(given).value as unknown as Record<string, unknown>;
    if (block.wholeRecord) return wholeMarkets(boundaries, recordOf, (given) => fetchedOf(given).storedAt);
    return fillBlock(boundaries, block, (given, name) => {
      if (block.keysAreBlock && isEmptyArgument(given)) return "";
      const record = recordOf(given);
      const metric = name in record ? name : metricName(name, Object.keys(record));
      return fieldCell(planned(record, metric), metric);
    });
  });
}

const MARKET_FILTER_FAMILY = {
  test: (name: string) => /_(gte|lte)$/.test(name),
  description: "and market filters named <metric>_gte or <metric>_lte (e.g. rent_avg_t30_gte)",
};

/**
 * Compares markets: one row per MSA (or submarket) with the metrics you ask for, ranked and filtered.
 * @customfunction MARKETS
 * @helpurl https://localhost:3000/help.html#rent-markets
 * @cancelable
 * @requiresAddress
 * @param metrics Metric names as a range or comma-separated text, e.g. "rent_avg_t30, leased_percent_avg_t30".
 * @param [options] Name/value pairs: geo_type (${own MARKETS_GEO_TYPES}; any type for markets named in boundary_ids), sort (a metric; default the first), direction (${values SortDirection}; default ${default exploreMarkets.sort_direction}), limit (${range exploreMarkets.limit}; default ${default exploreMarkets.limit}), states (e.g. "TX, FL"), msa_id (submarkets of one MSA, by id or name), boundary_ids (ids or names), account, market filters such as rent_avg_t30_gte, and property filters such as unified_status.
 * @param [headers] "ids" (default): columns headed by their field ids, the names formulas take; "names": by readable names such as "${label market.rent_avg_t30}".
 * @param [invocation] Custom function invocation.
 * @returns A header row [id, name, geo_type, metrics...] and one row per market.
 */
export async function markets(
  metrics: unknown[][],
  options?: unknown[][],
  headers?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    // Checked before the request: a mistyped metric costs none.
    const metricNames = readList(metrics, "metrics", readText).map((name) =>
      metricName(name, CONTRACT_METRICS),
    );
    if (metricNames.length === 0)
      throw new ArgumentError("metrics: name at least one metric, e.g. rent_avg_t30.");
    const option = readOptions(options, MARKETS_OPTIONS, "options", MARKET_FILTER_FAMILY);
    const marketFilters: Record<string, unknown> = {};
    for (const [name, value] of option) {
      if (MARKET_FILTER_FAMILY.test(name) && !(PROPERTY_FILTER_OPTIONS as readonly string[]).includes(name)) {
        marketFilters[name] = readNumber(value, name);
      }
    }
    const named = readPlaceList(option.get("boundary_ids"), "boundary_ids");
    // Markets named by boundary_ids need no type (they may be of either); otherwise the add-in's default is sent.
    const geoType = !isBlank(option.get("geo_type"))
      ? readMarketGeoType(option.get("geo_type"), "geo_type")
      : named.length > 0
        ? undefined
        : DEFAULT_MARKETS_GEO_TYPE;
    const states = readList(option.get("states"), "states", readText).map((state) => state.toUpperCase());
    const context = cellContext(cellSignal, option.get("account"));
    const resolve = (value: unknown, argument: string, types: readonly MarketGeoType[]) =>
      resolveBoundary(value, context, optionSite(argument), types).then((found) => found.id);
    const boundaryIds = await Promise.all(
      named.map((item) => resolve(item, "boundary_ids", geoType ? [geoType] : marketGeoTypeValues)),
    );
    const msaId = isEmptyArgument(option.get("msa_id"))
      ? undefined
      : await resolve(option.get("msa_id"), "msa_id", ["MSA"]);
    const query = {
      market_filters: {
        ...marketFilters,
        geo_type: geoType,
        states: states.length > 0 ? states : undefined,
        geo_boundary_ids: boundaryIds.length > 0 ? boundaryIds : undefined,
        msa_geo_boundary_id: msaId,
      },
      property_filters: readPropertyFilters(option),
      sort: isBlank(option.get("sort")) ? metricNames[0] : readText(option.get("sort"), "sort"),
      sort_direction: isBlank(option.get("direction"))
        ? MARKETS_DEFAULTS.sort_direction
        : readChoice(option.get("direction"), "direction", MARKETS_DIRECTIONS),
      limit: isBlank(option.get("limit"))
        ? MARKETS_DEFAULTS.limit
        : readInteger(option.get("limit"), "limit", MARKETS_LIMIT.minimum, MARKETS_LIMIT.maximum),
    };
    const found = (await context.data.read(EXPLORE_MARKETS, query, context.call)).value.data;
    const records = found.map((entry) => entry.attributes as unknown as Record<string, unknown>);
    const table = selectColumns(
      recordsToTable(records),
      ["id", "name", "geo_type", ...metricNames],
      "metrics",
    );
    const spill = spillFromTable(table, "No market matches these filters.", {
      choice: readHeaders(headers),
      record: "market",
    });
    const header = table.columns.map((column) => column.field);
    // A metric the caller's plan leaves out says so in each of its cells (a blank would read as no data).
    return spill.map((row, index) =>
      index === 0
        ? row
        : row.map((cell, column) => safelyPlanned(records[index - 1] ?? {}, header[column] ?? "", cell)),
    );
  });
}

/** Excel's limit on the text in one cell. */
const CELL_TEXT_LIMIT = 32_767;

/**
 * The service's written market narrative for an MSA or submarket: one section, or all of them.
 * @customfunction NARRATIVE
 * @helpurl https://localhost:3000/help.html#rent-narrative
 * @cancelable
 * @requiresAddress
 * @param boundaryId The MSA or submarket: its id or its exact name such as "Austin" (a metro by its whole name or principal city).
 * @param [section] ${own NARRATIVE_SECTIONS}.
 * @param [invocation] Custom function invocation.
 * @returns The section's text, or a two-column table [section, text] for all.
 */
export async function narrative(
  boundaryId: unknown,
  section?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const context = cellContext(cellSignal);
    const { id } = await resolveBoundary(
      boundaryId,
      context,
      firstArgumentOf("boundary_id", "RENT.NARRATIVE"),
      marketGeoTypeValues,
    );
    const { data, call } = context;
    const wanted = isEmptyArgument(section)
      ? DEFAULT_SECTION
      : readChoice(section, "section", SECTION_CHOICES);
    const found = (await data.read(NARRATIVES, { boundaryId: id }, call)).value.data[0];
    if (!found) {
      throw new ApiError(
        "not_found",
        `No narrative for boundary ${id}: narratives exist for MSAs and submarkets.`,
      );
    }
    const text = (name: NarrativeSection) =>
      (name === "sales" ? salesSectionText(found.attributes.sales) : found.attributes[name]).slice(
        0,
        CELL_TEXT_LIMIT,
      );
    if (wanted !== "all") return [[text(wanted)]];
    return [["section", "text"], ...NARRATIVE_SECTIONS.map((name) => [name, text(name)])];
  });
}
