import { forecastGeoTypeValues, marketGeoTypeValues } from "../../api/schema";
import { cellAddress, rectAddress, type CellRect } from "../../excel/a1";
import { COMP_SETS, GEO_SEARCH } from "../../data/endpoints";
import { forecast, geoForecast } from "../../functions/forecastFunctions";
import { headerOf } from "../../functions/args/headers";
import { market, markets, narrative } from "../../functions/marketFunctions";
import { property } from "../../functions/propertyFunctions";
import { floorPlans, survey, units } from "../../functions/compSetFunctions";
import type { Session } from "../../session/session";
import type { ExcelRunner } from "../excelRunner";
import { PaneInputError } from "../paneInputError";
import {
  BLOCK_KINDS,
  PER_CELL_KINDS,
  forecastTableSize,
  formulasFor,
  marketsArguments,
  type FormulaOptions,
  type InsertKind,
} from "./insertFormulas";
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
  /** Whether the formulas refer to the selected cells (one block over them, or one formula per cell). */
  block: boolean;
  /** What goes with the formulas, e.g. "with its header row in B1:C1" (the status line says it after them). */
  with?: string;
  /** Why the block goes further right than the cells beside the selection, when it does. */
  note?: string;
}

/** Cells written by Insert: formulas (or header text) in a rectangle from a cell. */
interface Write {
  row: number;
  column: number;
  formulas: string[][];
}

/** What Insert writes, where, and on which sheet (the selection's). */
interface Placed {
  planned: Planned;
  writes: Write[];
  sheet: Excel.Worksheet;
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
  async preview(
    kind: InsertKind,
    id: number | undefined,
    fields: readonly string[],
    options: FormulaOptions = {},
  ): Promise<string[]> {
    if (kind === "markets") {
      const args = marketsArguments(fields, options.markets);
      return [answerText(await markets([[args.metrics]], [[args.options]], args.headers))];
    }
    if (id === undefined) throw new PaneInputError("Find and choose what the formula is about first.");
    const forecastArgs = () => {
      const { interval, start, end, useRentValue } = options.forecast ?? {};
      return [
        interval || undefined,
        start || undefined,
        end || undefined,
        useRentValue || undefined,
      ] as const;
    };
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
        return [answerText(await forecast(id, [[fields.join(",")]], undefined, ...forecastArgs()))];
      case "forecast":
        return [answerText(await geoForecast(id, [[fields.join(",")]], undefined, ...forecastArgs()))];
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
   * name or id), one block formula referring to them under a header row, or one forecast per property, in the
   * first free cells beside them.
   */
  plan(
    kind: InsertKind,
    found: Found | undefined,
    fields: readonly string[],
    options: FormulaOptions = {},
  ): Promise<Planned> {
    return this.runExcel(
      async (context) => (await this.place(context, kind, found, fields, options)).planned,
    );
  }

  /** Writes the formulas where `plan` says they go (read again in the same batch, so nothing moved since). */
  insert(
    kind: InsertKind,
    found: Found | undefined,
    fields: readonly string[],
    options: FormulaOptions = {},
  ): Promise<Planned> {
    return this.runExcel(async (context) => {
      const { planned, writes, sheet } = await this.place(context, kind, found, fields, options);
      for (const write of writes) {
        const width = write.formulas[0]?.length ?? 0;
        sheet.getRangeByIndexes(write.row, write.column, write.formulas.length, width).formulas =
          write.formulas;
      }
      await context.sync();
      return planned;
    });
  }

  private async place(
    context: Excel.RequestContext,
    kind: InsertKind,
    found: Found | undefined,
    fields: readonly string[],
    options: FormulaOptions,
  ): Promise<Placed> {
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
    const overCells = BLOCK_KINDS.has(kind) || PER_CELL_KINDS.has(kind);
    if (several && overCells) {
      if (selection.columnCount !== 1) {
        throw new PaneInputError(
          `Select the ${kind === "market" ? "markets" : "property ids"} as one column of cells.`,
        );
      }
      return BLOCK_KINDS.has(kind)
        ? headedBlock(context, sheet, selection, kind, fields)
        : forecastPerProperty(context, sheet, selection, kind, fields, options);
    }
    if (!found && kind !== "markets") {
      throw new PaneInputError("Find and choose what the formula is about first.");
    }
    const formulas = formulasFor(kind, found && { id: found.id }, fields, options);
    const at = { row: selection.row, column: selection.column, rowCount: 1, columnCount: formulas.length };
    await requireFree(context, sheet, at);
    return {
      planned: { address: cellAddress(at.row, at.column), formulas, block: false },
      writes: [{ row: at.row, column: at.column, formulas: [formulas] }],
      sheet,
    };
  }
}

/**
 * One block formula over a selected column, with a header row of the fields' readable names above it, so the
 * block reads as a table; the block's rows stay beside the cells they come from. A column that starts in the
 * sheet's first row has no row above for the header, and the note says so.
 */
async function headedBlock(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  selection: CellRect,
  kind: InsertKind,
  fields: readonly string[],
): Promise<Placed> {
  const formulas = formulasFor(kind, { cells: rectAddress(selection) }, fields);
  const headed = selection.row > 0;
  const area = headed
    ? { ...selection, row: selection.row - 1, rowCount: selection.rowCount + 1 }
    : selection;
  // The block spills one row per selected cell and one column per field.
  const place = await placeBesideSelection(context, sheet, area, fields.length);
  const top = place.rect.row;
  const column = place.rect.column;
  const record = kind === "market" ? "market" : "property";
  const header = fields.map((field) => headerOf(field, { choice: "names", record }));
  const formulaRow = headed ? top + 1 : top;
  const planned: Planned = { address: cellAddress(formulaRow, column), formulas, block: true };
  const notes = [
    ...(place.skipped ? [skippedReason(place.skipped, place)] : []),
    ...(headed ? [] : ["no header row: the selected cells start in the sheet's first row"]),
  ];
  if (headed) planned.with = `with its header row in ${rectAddress({ ...place.rect, rowCount: 1 })}`;
  if (notes.length > 0) planned.note = notes.join("; ");
  const writes = [{ row: formulaRow, column, formulas: [formulas] }];
  return { planned, writes: headed ? [{ row: top, column, formulas: [header] }, ...writes] : writes, sheet };
}

/**
 * A property forecast for each selected cell (RENT.FORECAST takes one property): each under a cell naming its
 * property (RENT.PROPERTY's property_name of the same cell), the next one as many rows down as the forecast can
 * spill at its interval and a blank row, so no table spills into the next.
 */
async function forecastPerProperty(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  selection: CellRect,
  kind: InsertKind,
  fields: readonly string[],
  options: FormulaOptions,
): Promise<Placed> {
  const cells = Array.from({ length: selection.rowCount }, (_, index) =>
    cellAddress(selection.row + index, selection.column),
  );
  const formulas = cells.map((cells) => formulasFor(kind, { cells }, fields, options)[0] as string);
  const size = forecastTableSize(options.forecast?.interval ?? "", fields.length);
  const every = size.rows + 2;
  const area = { ...selection, rowCount: cells.length * every - 1 };
  const place = await placeBesideSelection(context, sheet, area, size.columns);
  const { row, column } = place.rect;
  const planned: Planned = {
    address: cellAddress(row, column),
    formulas,
    block: true,
    with: `each under its property's name, ${every} rows apart`,
  };
  if (place.skipped) planned.note = skippedReason(place.skipped, place);
  const writes = formulas.map((formula, index) => ({
    row: row + index * every,
    column,
    formulas: [[`=RENT.PROPERTY(${cells[index]}, "property_name")`], [formula]],
  }));
  return { planned, writes, sheet };
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
