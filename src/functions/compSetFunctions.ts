import { unitStyleValues } from "../api/schema";
import { FLOOR_PLAN_HISTORY_FIGURES } from "../api/readers/compSetReaders";
import { dayOfIso } from "../data/history/historyDays";
import { FLOOR_PLANS, MARKET_SURVEY, UNITS } from "../data/endpoints";
import { floorPlansToTable, marketSurveyToTable } from "../tables/compSetTables";
import { shapeTable } from "../tables/tableData";
import { unitsToTable } from "../tables/unitRecords";
import { session } from "../session/session";
import { readDate } from "./args/excelDates";
import { readOptions } from "./args/options";
import {
  isBlank,
  readChoice,
  readId,
  readList,
  readNumber,
  readOptionalNumber,
  readText,
} from "./args/scalars";
import { didYouMean } from "./args/suggest";
import { ArgumentError } from "./cellErrors";
import { runCell } from "./cellCall";
import { cellContext } from "./cellContext";
import { headerOf, readHeaders, type Headers } from "./args/headers";
import { compSetHistoryOf } from "./historyExportsOf";
import { compSetHistoryTable } from "./shape/compSetHistoryTable";
import {
  AGGREGATIONS,
  DEFAULT_AGGREGATION,
  DEFAULT_INTERVAL,
  INTERVALS,
  periodsOf,
} from "./shape/historyTable";
import { readHistoryLayout } from "./args/historyLayoutChoice";
import { checkWideColumns, wideSpillFromTable } from "./shape/historyGrid";
import { UNIT_OPTIONS } from "./args/unitOptions";
import { selectColumns, spillFromTable } from "./shape/spill";

// Numbers where 0 may be meant (0 bedrooms: a studio), so only a truly blank cell is skipped.
const readListText = (value: unknown, argument: string) =>
  readList(value, argument, readNumber, isBlank).join(",");
const readOptionalDate = (value: unknown, argument: string) =>
  isBlank(value) ? undefined : readDate(value, argument);

/**
 * The market survey of a comp set: one row per property (rent, size, exposure, occupancy, concessions, fees,
 * all-in pricing), then a "Comp average" row.
 * @customfunction SURVEY
 * @helpurl https://localhost:3000/help.html#rent-survey
 * @cancelable
 * @requiresAddress
 * @param compSetId Comp set id (see RENT.COMPSETS).
 * @param [columns] Columns to show, as a range or comma-separated text of column names; all when omitted.
 * @param [headers] "ids" (default): columns headed by their field ids, the names formulas take; "names": by readable names such as "${label market.rent_avg_t30}".
 * @param [invocation] Custom function invocation.
 * @returns A header row and one row per surveyed property.
 */
export async function survey(
  compSetId: unknown,
  columns?: unknown[][],
  headers?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const id = readId(compSetId, "comp_set_id");
    const wanted = readList(columns, "columns", readText);
    const { data, call } = cellContext(cellSignal);
    const survey = (await data.read(MARKET_SURVEY, { compSetId: id }, call)).value;
    const table = selectColumns(marketSurveyToTable(survey.items, survey.compAverage), wanted, "columns");
    return spillFromTable(table, `Comp set ${id} has no market survey rows.`, {
      choice: readHeaders(headers),
      record: "survey",
    });
  });
}

/**
 * The available units of a comp set with every unit field; concessions and amenities are flattened into
 * readable columns. Filters narrow the list.
 * @customfunction UNITS
 * @helpurl https://localhost:3000/help.html#rent-units
 * @cancelable
 * @requiresAddress
 * @param compSetId Comp set id (see RENT.COMPSETS).
 * @param [bedrooms] Bedroom counts: a number, a range, or text like "1,2".
 * @param [bathrooms] Bathroom counts: a number, a range, or text like "1,1.5".
 * @param [minRent] Lowest rent in dollars.
 * @param [maxRent] Highest rent in dollars.
 * @param [options] More filters as name/value pairs (a two-column range or "name=value; ..."): ${options UNITS}; unit_styles takes ${values UnitStyle}.
 * @param [headers] "ids" (default): columns headed by their field ids, the names formulas take; "names": by readable names such as "${label market.rent_avg_t30}".
 * @param [invocation] Custom function invocation.
 * @returns A header row and one row per unit.
 */
export async function units(
  compSetId: unknown,
  bedrooms?: unknown[][],
  bathrooms?: unknown[][],
  minRent?: unknown,
  maxRent?: unknown,
  options?: unknown[][],
  headers?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const id = readId(compSetId, "comp_set_id");
    const option = readOptions(options, UNIT_OPTIONS);
    const styles = readList(option.get("unit_styles"), "unit_styles", readText).map((style) => {
      const known = unitStyleValues.find((candidate) => candidate === style.toLowerCase());
      if (!known)
        throw new ArgumentError(`unit_styles must be among ${unitStyleValues.join(", ")}, not "${style}".`);
      return known;
    });
    const filters = {
      "filter[bedroom_count]": readListText(bedrooms, "bedrooms") || undefined,
      "filter[bathroom_count]": readListText(bathrooms, "bathrooms") || undefined,
      "filter[rent_gte]": readOptionalNumber(minRent, "min_rent"),
      "filter[rent_lte]": readOptionalNumber(maxRent, "max_rent"),
      "filter[property_ids]": readListText(option.get("property_ids"), "property_ids") || undefined,
      "filter[sq_ft_gte]": readOptionalNumber(option.get("min_sq_ft"), "min_sq_ft"),
      "filter[sq_ft_lte]": readOptionalNumber(option.get("max_sq_ft"), "max_sq_ft"),
      "filter[date_available_gte]": readOptionalDate(option.get("available_from"), "available_from"),
      "filter[date_available_lte]": readOptionalDate(option.get("available_to"), "available_to"),
      "filter[year_built_gte]": readOptionalNumber(option.get("min_year_built"), "min_year_built"),
      "filter[year_built_lte]": readOptionalNumber(option.get("max_year_built"), "max_year_built"),
      "filter[unit_styles]": styles.length > 0 ? styles.join(",") : undefined,
    };
    const wanted = readList(option.get("columns"), "columns", readText);
    const { data, call } = cellContext(cellSignal);
    const list = (await data.read(UNITS, { compSetId: id, filters }, call)).value.data;
    const table = selectColumns(unitsToTable(list), wanted, "columns");
    return spillFromTable(table, `No units of comp set ${id} match the filters.`, {
      choice: readHeaders(headers),
      record: "unit",
    });
  });
}

/**
 * A history shorter than asked says so in its `collected_at` header ("collected_at (2026-08-27 to 2026-11-01 of
 * 2025-11-01 to 2026-11-01 asked)"): the service keeps a limited history and answers a longer range with what it
 * has, without a word, and a model must not read the missing months as flat.
 */
function withReturnedRange(
  spill: unknown[][],
  headers: Headers,
  plans: readonly Record<string, unknown>[],
  from: string | undefined,
  to: string | undefined,
): unknown[][] {
  if (from === undefined && to === undefined) return spill;
  const days = plans.map((plan) => plan.collected_at).filter((day): day is string => typeof day === "string");
  if (days.length === 0) return spill;
  const first = days.reduce((a, b) => (a < b ? a : b)).slice(0, 10);
  const last = days.reduce((a, b) => (a > b ? a : b)).slice(0, 10);
  const shorter = (from !== undefined && first > from) || (to !== undefined && last < to);
  if (!shorter) return spill;
  const collectedAt = headerOf("collected_at", headers);
  const header = (spill[0] ?? []).map((name) =>
    name === collectedAt
      ? `${collectedAt} (${first} to ${last} of ${from ?? "the start"} to ${to ?? "today"} asked)`
      : name,
  );
  return [header, ...spill.slice(1)];
}

/**
 * The floor plans of a comp set, one row per property and plan. Without collection dates, the most recent
 * collection day alone.
 * @customfunction FLOORPLANS
 * @helpurl https://localhost:3000/help.html#rent-floorplans
 * @cancelable
 * @requiresAddress
 * @param compSetId Comp set id (see RENT.COMPSETS).
 * @param [collectedFrom] First collection day (a date).
 * @param [collectedTo] Last collection day (a date).
 * @param [availableFrom] Only plans with units available from this date.
 * @param [availableTo] Only plans with units available up to this date.
 * @param [headers] "ids" (default): columns headed by their field ids, the names formulas take; "names": by readable names such as "${label market.rent_avg_t30}".
 * @param [invocation] Custom function invocation.
 * @returns A header row and one row per floor plan.
 */
export async function floorPlans(
  compSetId: unknown,
  collectedFrom?: unknown,
  collectedTo?: unknown,
  availableFrom?: unknown,
  availableTo?: unknown,
  headers?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const id = readId(compSetId, "comp_set_id");
    const filters = {
      "filter[collected_at_gte]": readOptionalDate(collectedFrom, "collected_from"),
      "filter[collected_at_lte]": readOptionalDate(collectedTo, "collected_to"),
      "filter[date_available_gte]": readOptionalDate(availableFrom, "available_from"),
      "filter[date_available_lte]": readOptionalDate(availableTo, "available_to"),
    };
    const { data, call } = cellContext(cellSignal);
    const plans = (await data.read(FLOOR_PLANS, { compSetId: id, filters }, call)).value;
    const heads: Headers = { choice: readHeaders(headers), record: "floorPlan" };
    const spill = spillFromTable(
      floorPlansToTable(plans),
      `Comp set ${id} has no floor plans for these dates.`,
      heads,
    );
    return withReturnedRange(
      spill,
      heads,
      plans,
      filters["filter[collected_at_gte]"],
      filters["filter[collected_at_lte]"],
    );
  });
}

function readFigure(value: unknown): string {
  const text = readText(value, "fields");
  const figure = FLOOR_PLAN_HISTORY_FIGURES.find((known) => known === text.toLowerCase());
  if (!figure)
    throw new ArgumentError(
      `fields: a floor plan history holds ${FLOOR_PLAN_HISTORY_FIGURES.join(" and ")}, not "${text}".` +
        didYouMean(text, FLOOR_PLAN_HISTORY_FIGURES),
    );
  return figure;
}

/**
 * A comp set's floor plans over time, like RENT.HISTORY for properties: one row per floor plan and day, week,
 * month or quarter, from the comp set's floor plan history. Finished days are kept for good, so the same range
 * again costs nothing. When the service keeps a shorter history than asked, the date header says which range
 * it returned.
 * @customfunction FLOORPLANHISTORY
 * @helpurl https://localhost:3000/help.html#rent-floorplanhistory
 * @cancelable
 * @requiresAddress
 * @param compSetId Comp set id (see RENT.COMPSETS).
 * @param fields asking_rent, net_effective_rent, or both (a range or comma-separated text); both when empty.
 * @param start First day (a date).
 * @param end Last day (a date before today).
 * @param [interval] One row per ${own HISTORY_INTERVALS}.
 * @param [aggregation] How a longer period sums up its days: ${own HISTORY_AGGREGATIONS}.
 * @param [headers] "ids" (default): columns headed by their field ids, the names formulas take; "names": by readable names such as "${label market.rent_avg_t30}".
 * @param [layout] ${own HISTORY_LAYOUTS}. long: one row per floor plan and period, a column per field; wide: one row per field and floor plan, a column per period headed by its date.
 * @param [invocation] Custom function invocation.
 * @returns A header row and one row per floor plan and period (long), or per field and floor plan (wide).
 */
export async function floorPlanHistory(
  compSetId: unknown,
  fields: unknown[][],
  start: unknown,
  end: unknown,
  interval?: unknown,
  aggregation?: unknown,
  headers?: unknown,
  layout?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const id = readId(compSetId, "comp_set_id");
    const heads: Headers = { choice: readHeaders(headers), record: "floorPlan" };
    const asked = readList(fields, "fields", readFigure);
    const figures = asked.length === 0 ? [...FLOOR_PLAN_HISTORY_FIGURES] : [...new Set(asked)];
    const range = { first: dayOfIso(readDate(start, "start")), last: dayOfIso(readDate(end, "end")) };
    if (range.first > range.last) throw new ArgumentError("start must not be after end.");
    const signedIn = session.requireSignedIn();
    const history = compSetHistoryOf(signedIn);
    if (range.last >= history.today())
      throw new ArgumentError(
        "end must be before today: history covers finished days (RENT.FLOORPLANS has today's plans).",
      );
    const every = isBlank(interval) ? DEFAULT_INTERVAL : readChoice(interval, "interval", INTERVALS);
    const by = isBlank(aggregation)
      ? DEFAULT_AGGREGATION
      : readChoice(aggregation, "aggregation", AGGREGATIONS);
    const arrangement = readHistoryLayout(layout);
    if (arrangement === "wide") checkWideColumns("FLOORPLANHISTORY", periodsOf(range, every).length, every);
    const { call } = cellContext(cellSignal);
    const days = await history.days(id, range, call);
    const table = compSetHistoryTable(days, range, figures, every, by);
    const shaped = shapeTable(table.columns, table.rows);
    const empty = `Comp set ${id} has no floor plan history for these days.`;
    return arrangement === "wide"
      ? wideSpillFromTable(shaped, "FLOORPLANHISTORY", empty, heads, table.shorter)
      : spillFromTable(shaped, empty, heads);
  });
}
