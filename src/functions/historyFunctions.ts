import { MAX_JOB_PROPERTY_IDS } from "../api/contractLimits";
import { EXPORT_SUBMITTING, FINDING_PROPERTIES } from "../tables/exportWaitTexts";
import { shapeTable } from "../tables/tableData";
import { dayOfIso } from "../data/history/historyDays";
import { AnswerTrail } from "../data/answerTrail";
import { session } from "../session/session";
import { rememberCellAsOf } from "./cellAsOf";
import { readDate } from "./args/excelDates";
import { readFieldName } from "./args/fieldVocabulary";
import { isBlank, readChoice, readId, readList, readText } from "./args/scalars";
import { ArgumentError, toCellError } from "./cellErrors";
import { cellContext } from "./cellContext";
import { streamingCellSignal } from "./cellCall";
import { historyExportsOf } from "./historyExportsOf";
import { firstArgumentOf, isIdText, resolveProperty } from "./args/nameResolver";
import { readHeaders, type Headers } from "./args/headers";
import { readHistoryLayout } from "./args/historyLayoutChoice";
import {
  AGGREGATIONS,
  DEFAULT_AGGREGATION,
  DEFAULT_INTERVAL,
  HISTORY_FIELDS,
  INTERVALS,
  historyTable,
  periodsOf,
  type Aggregation,
  type Interval,
} from "./shape/historyTable";
import { checkWideColumns, wideSpillFromTable } from "./shape/historyGrid";
import type { HistoryLayout } from "./shape/historyLayout";
import { spillFromTable } from "./shape/spill";

/** Properties one formula may ask for: one job's worth of ids. */
const MAX_PROPERTIES = MAX_JOB_PROPERTY_IDS;

interface HistoryArguments {
  ids: number[];
  fields: string[];
  first: number;
  last: number;
  interval: Interval;
  aggregation: Aggregation;
  layout: HistoryLayout;
}

const NO_HISTORY = "No history for these properties and days.";

/** A column of the property export, by its name or a word the contract gives it (asking_rent is avg_rent). */
function readField(value: unknown, argument: string): string {
  const text = readText(value, argument);
  return readFieldName(text, HISTORY_FIELDS, `${argument}: the property export has no column "${text}"`);
}

function readArguments(
  ids: number[],
  fields: unknown,
  start: unknown,
  end: unknown,
  interval: unknown,
  aggregation: unknown,
  layout: unknown,
  today: number,
): HistoryArguments {
  if (ids.length === 0) throw new ArgumentError("properties: give at least one property id or name.");
  if (ids.length > MAX_PROPERTIES)
    throw new ArgumentError(
      `properties: at most ${MAX_PROPERTIES} ids per formula; ${ids.length} were given.`,
    );
  const wanted = readList(fields, "fields", readField);
  if (wanted.length === 0) throw new ArgumentError(`fields: name at least one column, such as avg_rent.`);
  const first = dayOfIso(readDate(start, "start"));
  const last = dayOfIso(readDate(end, "end"));
  if (first > last) throw new ArgumentError("start must not be after end.");
  if (last >= today)
    throw new ArgumentError(
      "end must be before today: history covers finished days (RENT.PROPERTY has today's figures).",
    );
  const every = isBlank(interval) ? DEFAULT_INTERVAL : readChoice(interval, "interval", INTERVALS);
  const arrangement = readHistoryLayout(layout);
  if (arrangement === "wide") checkWideColumns("HISTORY", periodsOf({ first, last }, every).length, every);
  return {
    ids,
    fields: [...new Set(wanted)],
    first,
    last,
    interval: every,
    aggregation: isBlank(aggregation)
      ? DEFAULT_AGGREGATION
      : readChoice(aggregation, "aggregation", AGGREGATIONS),
    layout: arrangement,
  };
}

/**
 * A property figure over time, like BDH: every column of the property export, one row per property and day,
 * week, month or quarter. Served by bulk export jobs, which take minutes: the cell shows the wait ("export
 * running, about 4 min"), then the table spills. Finished days are kept for good, so the next time costs nothing.
 * @customfunction HISTORY
 * @helpurl https://localhost:3000/help.html#rent-history
 * @streaming
 * @requiresStreamAddress
 * @param properties Property ids, names or street addresses (each optionally with its city and/or state): a range, or text like "100001, 100002".
 * @param fields Columns of the property export, such as avg_rent, avg_ner, advertised_occupancy_pct, leases_last_30d, or a word the contract gives one (asking_rent is avg_rent).
 * @param start First day (a date).
 * @param end Last day (a date before today).
 * @param [interval] One row per ${own HISTORY_INTERVALS}.
 * @param [aggregation] How a longer period sums up its days: ${own HISTORY_AGGREGATIONS}.
 * @param [headers] "ids" (default): columns headed by their field ids, the names formulas take; "names": by readable names such as "${label market.rent_avg_t30}".
 * @param [layout] ${own HISTORY_LAYOUTS}. long: one row per property and period, a column per field; wide: one row per field and property, a column per period headed by its date.
 * @param invocation Custom function invocation.
 */
export function history(
  properties: unknown[][],
  fields: unknown[][],
  start: unknown,
  end: unknown,
  interval: unknown,
  aggregation: unknown,
  headers: unknown,
  layout: unknown,
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>,
): void {
  const controller = new AbortController();
  invocation.onCanceled = () => controller.abort();
  const cell = streamingCellSignal(invocation, controller);
  // Excel gives the calling cell's address (requiresStreamAddress): the pane shows the cell's as-of by it.
  const address = invocation.address;
  const trail = address === undefined ? undefined : new AnswerTrail();
  /** The cell's last value (a table or an error, not a wait): what it rests on is remembered with it. */
  const settle = (value: unknown[][] | CustomFunctions.Error) => {
    if (address !== undefined && trail) rememberCellAsOf(address, trail, Date.now());
    invocation.setResult(value);
  };
  const fail = (error: unknown) => {
    if (!controller.signal.aborted) settle(toCellError(error));
  };
  try {
    const signedIn = session.requireSignedIn();
    const exports = historyExportsOf(signedIn);
    const today = exports.today();
    const heads: Headers = { choice: readHeaders(headers), record: "exportProperty" };
    const run = (ids: number[]): void => {
      const asked = readArguments(ids, fields, start, end, interval, aggregation, layout, today);
      const need = { ids: asked.ids, first: asked.first, last: asked.last };
      const spill = (rows: NonNullable<ReturnType<typeof exports.known>>) => {
        const table = historyTable(rows, need, asked.fields, asked.interval, asked.aggregation);
        const shaped = shapeTable(table.columns, table.rows);
        return asked.layout === "wide"
          ? wideSpillFromTable(shaped, "HISTORY", NO_HISTORY, heads)
          : spillFromTable(shaped, NO_HISTORY, heads);
      };
      const known = exports.known(need, trail);
      if (known) return settle(spill(known));
      // Read before the wait shows: in a formula value preview this is where the call stops, unsubmitted.
      const signal = cell.signal;
      invocation.setResult([[EXPORT_SUBMITTING]]);
      exports
        .rows(need, {
          signal,
          trail,
          onProgress: (progress) => {
            if (!controller.signal.aborted) invocation.setResult([[progress.text]]);
          },
        })
        .then((rows) => {
          if (!controller.signal.aborted) settle(spill(rows));
        })
        .catch(fail);
    };
    const given = readList(properties, "properties", (item) => item);
    if (given.every(isIdText)) return run([...new Set(given.map((item) => readId(item, "properties")))]);
    // Names are looked up (one cached request each) once the other arguments are known to be right.
    readArguments([0], fields, start, end, interval, aggregation, layout, today);
    invocation.setResult([[FINDING_PROPERTIES]]);
    const context = cellContext(cell);
    Promise.all(
      given.map((item) => resolveProperty(item, context, firstArgumentOf("properties", "RENT.HISTORY"))),
    )
      .then((ids) => {
        if (!controller.signal.aborted) run([...new Set(ids)]);
      })
      .catch(fail);
  } catch (error) {
    fail(error);
  }
}
