import { COMP_SETS, GEO_SEARCH, LOOKUP } from "../../data/endpoints";
import { columnLetters } from "../../excel/a1";
import { forecast, geoForecast } from "../../functions/forecastFunctions";
import { market, narrative } from "../../functions/marketFunctions";
import { property } from "../../functions/propertyFunctions";
import { floorPlans, survey, units } from "../../functions/compSetFunctions";
import type { Session } from "../../session/session";
import type { ExcelRunner } from "../excelRunner";
import { PaneInputError } from "../paneInputError";
import { BLOCK_KINDS, formulasFor, type InsertKind, type Subject } from "./insertFormulas";
import { answerText } from "./previewText";

/** A boundary, property or comp set found by name. */
export interface Found {
  id: number;
  label: string;
}

export interface Inserted {
  /** Where the first formula went, e.g. "B2". */
  address: string;
  formulas: string[];
}

const SEARCH_LIMIT = 8;

/** Geo types RENT.MARKET and RENT.NARRATIVE take; forecasts take ZIP codes too. */
const MARKET_GEO_TYPES = ["MSA", "BespokeSubmarket"] as const;
const FORECAST_GEO_TYPES = ["MSA", "BespokeSubmarket", "ZipCode"] as const;

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

  async find(kind: InsertKind, typed: string, signal?: AbortSignal): Promise<Found[]> {
    const query = typed.trim();
    if (query.length < 2) return [];
    const { data, accountId } = this.session.requireSignedIn();
    const call = { accountId, signal };
    if (kind === "property" || kind === "propertyForecast") {
      const ids = (await data.read(LOOKUP, { property_name: query, per_page: SEARCH_LIMIT }, call)).value
        .data;
      const { records } = await data.propertyDetails(ids, call);
      return ids.map((id) => {
        const record = records.get(id);
        const name = record && !(record instanceof Error) ? record.value.property_name : "";
        const city = record && !(record instanceof Error) ? record.value.city : "";
        return { id, label: [name, city].filter(Boolean).join(", ") || `Property ${id}` };
      });
    }
    if (kind === "compSet") {
      const sets = (await data.read(COMP_SETS, {}, call)).value.data;
      const words = query.toLowerCase();
      return sets
        .filter((set) => set.attributes.name.toLowerCase().includes(words))
        .map((set) => ({ id: Number(set.id), label: set.attributes.name }));
    }
    const geoTypes = kind === "forecast" ? FORECAST_GEO_TYPES : MARKET_GEO_TYPES;
    const body = { query, geo_type: [...geoTypes], limit: SEARCH_LIMIT };
    const found = (await data.read(GEO_SEARCH, body, call)).value.data;
    return found.map(({ attributes }) => ({
      id: attributes.id,
      label: `${attributes.name} (${attributes.geo_type})`,
    }));
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
   * Writes the formulas: with one cell selected, there and to its right; with a column of several cells
   * selected (property ids, or markets by name or id), one block formula in the column to its right that
   * refers to them.
   */
  async insert(kind: InsertKind, found: Found | undefined, fields: readonly string[]): Promise<Inserted> {
    return this.runExcel(async (context) => {
      const range = context.workbook.getSelectedRange();
      range.load(["rowIndex", "columnIndex", "rowCount", "columnCount"]);
      await context.sync();
      const several = range.rowCount * range.columnCount > 1;
      let subject: Subject;
      const row = range.rowIndex;
      let column = range.columnIndex;
      if (several && BLOCK_KINDS.has(kind)) {
        if (range.columnCount !== 1) {
          throw new PaneInputError(
            `Select the ${kind === "market" ? "markets" : "property ids"} as one column of cells.`,
          );
        }
        const letters = columnLetters(column);
        subject = { cells: `${letters}${row + 1}:${letters}${row + range.rowCount}` };
        column += 1;
      } else {
        if (!found) throw new PaneInputError("Find and choose what the formula is about first.");
        subject = { id: found.id };
      }
      const formulas = formulasFor(kind, subject, fields);
      const target = range.worksheet.getRangeByIndexes(row, column, 1, formulas.length);
      target.formulas = [formulas];
      await context.sync();
      return { address: `${columnLetters(column)}${row + 1}`, formulas };
    });
  }
}
