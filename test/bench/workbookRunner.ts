/**
 * Evaluates a workbook description through the real functions layer, the way Excel does: every cell's
 * function is called at once with Excel-shaped arguments (a range parameter gets a 2-D array, an omitted
 * optional argument is null), and each cell ends with a value or a cell error.
 */
import { performance } from "node:perf_hooks";
import { forecast, geoForecast } from "../../src/functions/forecastFunctions";
import { market, narrative } from "../../src/functions/marketFunctions";
import { survey, units } from "../../src/functions/compSetFunctions";
import { property } from "../../src/functions/propertyFunctions";
import { fakeInvocation } from "../support/invocation";
import type { WorkbookCell } from "./referenceWorkbook";

/** What a cell shows: its value (scalar or spilled array), or the code and message of its error. */
export type CellOutcome = { value: unknown } | { error: string; message: string };

/** Cell errors inside a spilled array become plain data, so outcomes compare with toEqual / JSON. */
function plain(value: unknown): unknown {
  if (value instanceof CustomFunctions.Error) return { error: value.code, message: value.message };
  return Array.isArray(value) ? value.map(plain) : value;
}

function outcomeOf(result: PromiseSettledResult<unknown>): CellOutcome {
  if (result.status === "fulfilled") return { value: plain(result.value) };
  const error = result.reason as { code?: unknown; message?: unknown };
  return { error: String(error.code ?? "exception"), message: String(error.message ?? result.reason) };
}

/**
 * A cell's call with its arguments and invocation already built: Excel has them ready when it calls the
 * function, so building them is no part of the add-in's time.
 */
type PreparedCall = () => Promise<unknown>;

function prepare(cell: WorkbookCell, address: string): PreparedCall {
  const invocation = fakeInvocation(address);
  switch (cell.fn) {
    case "PROPERTY": {
      const ids = cell.ids.map((id) => [id]);
      const fields = [cell.fields];
      return () => property(ids, fields, invocation);
    }
    case "FORECAST": {
      const fields = [cell.fields];
      return () =>
        forecast(cell.propertyId, fields, null, null, null, null, null, null, undefined, invocation);
    }
    case "MARKET": {
      const ids = [[cell.boundary.id]];
      const metrics = [[cell.metric]];
      return () => market(ids, metrics, undefined, invocation);
    }
    case "GEOFORECAST": {
      const fields = [cell.fields];
      return () => geoForecast(cell.boundaryId, fields, null, null, null, null, null, undefined, invocation);
    }
    case "UNITS":
      return () => units(cell.compSetId, undefined, undefined, null, null, undefined, undefined, invocation);
    case "SURVEY":
      return () => survey(cell.compSetId, undefined, undefined, invocation);
    case "NARRATIVE":
      return () => narrative(cell.boundaryId, cell.section, invocation);
  }
}

/** The outcomes in cell order, and the time from the first call until every cell had settled. */
export interface Evaluation {
  outcomes: CellOutcome[];
  ms: number;
}

/**
 * Starts every cell before awaiting any (a recalculation). Only the calls and their settling are timed: turning
 * the results into comparable outcomes afterwards is the harness's own work, which Excel does not do.
 */
export async function timedEvaluation(cells: readonly WorkbookCell[]): Promise<Evaluation> {
  const calls = cells.map((cell, index) => prepare(cell, `Model!R${index + 1}`));
  const start = performance.now();
  const settled = await Promise.allSettled(calls.map((call) => call()));
  const ms = performance.now() - start;
  return { outcomes: settled.map(outcomeOf), ms };
}

/** Starts every cell before awaiting any (a recalculation), and returns their outcomes in cell order. */
export async function evaluateWorkbook(cells: readonly WorkbookCell[]): Promise<CellOutcome[]> {
  return (await timedEvaluation(cells)).outcomes;
}

export function isError(outcome: CellOutcome): outcome is { error: string; message: string } {
  return "error" in outcome;
}
