/**
 * Evaluates a workbook description through the real functions layer, the way Excel does: every cell's
 * function is called at once with Excel-shaped arguments (a range parameter gets a 2-D array, an omitted
 * optional argument is null), and each cell ends with a value or a cell error.
 */
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

function call(cell: WorkbookCell, address: string): Promise<unknown> {
  const invocation = fakeInvocation(address);
  switch (cell.fn) {
    case "PROPERTY":
      return property(
        cell.ids.map((id) => [id]),
        [cell.fields],
        invocation,
      );
    case "FORECAST":
      return forecast(cell.propertyId, [cell.fields], null, null, null, null, null, null, invocation);
    case "MARKET":
      return market([[cell.boundary.id]], [[cell.metric]], undefined, invocation);
    case "GEOFORECAST":
      return geoForecast(cell.boundaryId, [cell.fields], null, null, null, null, null, invocation);
    case "UNITS":
      return units(cell.compSetId, undefined, undefined, null, null, undefined, invocation);
    case "SURVEY":
      return survey(cell.compSetId, undefined, invocation);
    case "NARRATIVE":
      return narrative(cell.boundaryId, cell.section, invocation);
  }
}

/** Starts every cell before awaiting any (a recalculation), and returns their outcomes in cell order. */
export async function evaluateWorkbook(cells: readonly WorkbookCell[]): Promise<CellOutcome[]> {
  const settled = await Promise.allSettled(cells.map((cell, index) => call(cell, `Model!R${index + 1}`)));
  return settled.map((result) => {
    if (result.status === "fulfilled") return { value: plain(result.value) };
    const error = result.reason as { code?: unknown; message?: unknown };
    return { error: String(error.code ?? "exception"), message: String(error.message ?? result.reason) };
  });
}

export function isError(outcome: CellOutcome): outcome is { error: string; message: string } {
  return "error" in outcome;
}
