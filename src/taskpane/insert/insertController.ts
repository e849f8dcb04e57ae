import { forecastGeoTypeValues, marketGeoTypeValues } from "../../api/schema";
import { cellAddress, rectAddress, type CellRect } from "../../excel/a1";
import { COMP_SETS, GEO_SEARCH } from "../../data/endpoints";
import { forecast, geoForecast } from "../../functions/forecastFunctions";
import { market, narrative } from "../../functions/marketFunctions";
import { property } from "../../functions/propertyFunctions";
import { floorPlans, survey, units } from "../../functions/compSetFunctions";
import type { Session } from "../../session/session";
import type { ExcelRunner } from "../excelRunner";
import { PaneInputError } from "../paneInputError";
import { BLOCK_KINDS, formulasFor, type InsertKind } from "./insertFormulas";
import { placeBesideSelection, requireFree, type BlockPlace } from "./insertTarget";
import { answerText } from "./previewText";
import { searchProperties } from "./propertySearch";

/** A boundary, property or comp set found by name. */
export interface Found {
  id: number;
  label: string;
}

export interface SearchResult {
  found: Found[];
  /** For the status line: how many were found, and whether more match than the list shows. */
  summary: string;
}

export interface Planned {
  /** Where the first formula goes, e.g. "B2". */
  address: string;
  formulas: string[];
  /** Whether it is one block formula referring to the selected cells. */
  block: boolean;
  /** Why the block goes further right than the cells beside the selection, when it does. */
  note?: string;
}

const SEARCH_LIMIT = 8;

/**
 * The formula builder's logic: finds what a formula is about by name (through the data layer, so searches
 * are cached and paced with everything else), previews the value with the same code the cell runs, and
 * writes the formulas to the workbook.
 */
export class InsertController {
  constructor(
    private readonly session: Session,
    private readonly runExcel: ExcelRunner,
  ) {}

  async find(kind: InsertKind, typed: string, signal?: AbortSignal): Promise<SearchResult> {
    const query = typed.trim();
    if (query.length < 2) return { found: [], summary: "Type at least two letters to search." };
    const { data, accountId } = this.session.requireSignedIn();
    const call = { accountId, signal };
    if (kind === "property" || kind === "propertyForecast") {
      return searchProperties(data, query, SEARCH_LIMIT, call);
    }
    if (kind === "compSet") {
      const sets = (await data.read(COMP_SETS, {}, call)).value.data;
      const words = query.toLowerCase();
      const found = sets
        .filter((set) => set.attributes.name.toLowerCase().includes(words))
        .map((set) => ({ id: Number(set.id), label: set.attributes.name }));
      return { found, summary: countSummary(query, found.length, false) };
    }
    const geoTypes = kind === "forecast" ? forecastGeoTypeValues : marketGeoTypeValues;
    const body = { query, geo_type: [...geoTypes], limit: SEARCH_LIMIT };
    const found = (await data.read(GEO_SEARCH, body, call)).value.data.map(({ attributes }) => ({
      id: attributes.id,
      label: `${attributes.name} (${attributes.geo_type})`,
    }));
    // The boundary search gives no total: a full list may be the first of more.
    return { found, summary: countSummary(query, found.length, found.length === SEARCH_LIMIT) };
  }

  /** What the formulas will show, computed by the RENT functions themselves: one line per formula. */
  async preview(kind: InsertKind, id: number, fields: readonly string[]): Promise<string[]> {
    switch (kind) {
      case "market":
        return Promise.all(
          fields.map(async (metric) => `${metric}: ${answerText(await market([[id]], [[metric]]))}`),
        );
      case "property": {
        const values = (await property([[id]], [fields.slice()]))[0] ?? [];
        return fields.map((field, index) => `${field}: ${answerText(values[index])}`);
      }
      case "propertyForecast":
        return [answerText(await forecast(id, [[fields.join(",")]]))];
      case "forecast":
        return [answerText(await geoForecast(id, [[fields.join(",")]]))];
      case "compSet": {
        const table = { SURVEY: survey, UNITS: units, FLOORPLANS: floorPlans }[fields[0] ?? ""];
        if (!table || fields.length !== 1) throw new PaneInputError("Pick one comp set table.");
        return [answerText(await table(id))];
      }
      case "narrative":
        return [answerText(await narrative(id, fields[0]))];
    }
  }

  /**
   * Where the formulas for this choice go and what they are, from the selection, without writing: with one
   * cell selected, there and to its right; with a column of several cells selected (property ids, or markets by
   * name or id), one block formula referring to them, in the first free cells beside them.
   */
  plan(kind: InsertKind, found: Found | undefined, fields: readonly string[]): Promise<Planned> {
    return this.runExcel(async (context) => (await this.place(context, kind, found, fields)).planned);
  }

  /** Writes the formulas where `plan` says they go (read again in the same batch, so nothing moved since). */
  insert(kind: InsertKind, found: Found | undefined, fields: readonly string[]): Promise<Planned> {
    return this.runExcel(async (context) => {
      const { planned, target } = await this.place(context, kind, found, fields);
      target.formulas = [planned.formulas];
      await context.sync();
      return planned;
    });
  }

  private async place(
    context: Excel.RequestContext,
    kind: InsertKind,
    found: Found | undefined,
    fields: readonly string[],
  ): Promise<{ planned: Planned; target: Excel.Range }> {
    const range = context.workbook.getSelectedRange();
    range.load(["rowIndex", "columnIndex", "rowCount", "columnCount"]);
    await context.sync();
    const sheet = range.worksheet;
    const selection = {
      row: range.rowIndex,
      column: range.columnIndex,
      rowCount: range.rowCount,
      columnCount: range.columnCount,
    };
    const several = selection.rowCount * selection.columnCount > 1;
    if (several && BLOCK_KINDS.has(kind)) {
      if (selection.columnCount !== 1) {
        throw new PaneInputError(
          `Select the ${kind === "market" ? "markets" : "property ids"} as one column of cells.`,
        );
      }
      const formulas = formulasFor(kind, { cells: rectAddress(selection) }, fields);
      // The block spills one row per selected cell and one column per field.
      const place = await placeBesideSelection(context, sheet, selection, fields.length);
      const at = place.rect;
      const planned: Planned = { address: cellAddress(at.row, at.column), formulas, block: true };
      if (place.skipped) planned.note = skippedReason(place.skipped, place);
      return { planned, target: sheet.getRangeByIndexes(at.row, at.column, 1, 1) };
    }
    if (!found) throw new PaneInputError("Find and choose what the formula is about first.");
    const formulas = formulasFor(kind, { id: found.id }, fields);
    const at = { row: selection.row, column: selection.column, rowCount: 1, columnCount: formulas.length };
    await requireFree(context, sheet, at);
    return {
      planned: { address: cellAddress(at.row, at.column), formulas, block: false },
      target: sheet.getRangeByIndexes(at.row, at.column, 1, formulas.length),
    };
  }
}

function countSummary(query: string, count: number, mayBeMore: boolean): string {
  if (count === 0) return `Nothing found for "${query}".`;
  return mayBeMore
    ? `The first ${count} found for "${query}": type more of the name to narrow the list.`
    : `${count} found for "${query}".`;
}

/** Why a block went further right than the cells beside the selection. */
function skippedReason(skipped: CellRect, { skippedSpill, sourceSpill }: BlockPlace): string {
  const cells = rectAddress(skipped);
  if (!skippedSpill) return `${cells} beside the selection is not empty`;
  const anchor = cellAddress(skippedSpill.row, skippedSpill.column);
  const source = sourceSpill?.row === skippedSpill.row && sourceSpill.column === skippedSpill.column;
  return `${cells} is inside the spill of ${anchor}${source ? ", where the selected cells come from" : ""}`;
}
