import { COMP_SETS, FLOOR_PLANS, MARKET_SURVEY, UNITS } from "../data/endpoints";
import { floorPlansToTable, marketSurveyToTable } from "../tables/compSetTables";
import { MAX_SHEET_NAME_LENGTH } from "../excel/sheetNames";
import type { TableData } from "../tables/tableData";
import { writeTable, type WriteProgress, type WriteTableResult } from "../excel/tableWriter";
import { unitsToTable } from "../tables/unitRecords";
import type { Session } from "../session/session";
import type { ExcelRunner } from "./excelRunner";

export interface CompSetSummary {
  id: number;
  name: string;
  category: string;
  propertyCount: number;
}

export type CompSetExport = "units" | "survey" | "floorPlans";

/** The words each export adds to the comp set's name for its sheet. */
export const EXPORT_SHEET_SUFFIX: Readonly<Record<CompSetExport, string>> = {
  units: "units",
  survey: "survey",
  floorPlans: "floor plans",
};

/** Room kept for the " (2)" that src/excel adds when the name is taken, so the suffix is never cut. */
const COLLISION_ROOM = 4;

/**
 * "<comp set name> units": the comp set's name shortened to leave the export's own word (and a collision
 * number) whole, so the units, survey and floor plan sheets of one long-named comp set stay distinguishable.
 */
export function exportSheetName(compSetName: string, what: CompSetExport): string {
  const suffix = EXPORT_SHEET_SUFFIX[what];
  const room = MAX_SHEET_NAME_LENGTH - suffix.length - 1 - COLLISION_ROOM;
  const name = Array.from(compSetName.trim());
  const shortened =
    name.length <= room
      ? name.join("")
      : `${name
          .slice(0, room - 1)
          .join("")
          .trimEnd()}…`;
  return `${shortened} ${suffix}`;
}

export interface ExportOptions {
  onProgress?: (progress: WriteProgress) => void;
  signal?: AbortSignal;
}

export interface ExportResult extends WriteTableResult {
  /** The table was empty: nothing was written. */
  readonly empty: boolean;
}

/**
 * The comp sets of the chosen account and their exports: one click reads the comp set's units, market survey
 * or floor plans through the data layer and writes them to a new worksheet as an Excel table (src/excel
 * names the sheet after the comp set and never overwrites one).
 */
export class CompSetsController {
  constructor(
    private readonly session: Session,
    private readonly runExcel: ExcelRunner,
  ) {}

  async list(signal?: AbortSignal): Promise<CompSetSummary[]> {
    const { data, accountId } = this.session.requireSignedIn();
    const sets = (await data.read(COMP_SETS, {}, { accountId, signal })).value.data;
    return sets.map((set) => ({
      id: Number(set.id),
      name: set.attributes.name,
      category: set.attributes.category,
      propertyCount: set.attributes.property_ids.length,
    }));
  }

  async export(
    compSet: CompSetSummary,
    what: CompSetExport,
    options: ExportOptions = {},
  ): Promise<ExportResult> {
    const table = await this.table(compSet.id, what, options.signal);
    const sheetName = exportSheetName(compSet.name, what);
    if (table.rows.length === 0) {
      return { sheetName, address: "", rowsWritten: 0, requests: 0, largestChunkBytes: 0, empty: true };
    }
    const written = await this.runExcel((context) =>
      writeTable(context, table, { sheetName, onProgress: options.onProgress, signal: options.signal }),
    );
    return { ...written, empty: false };
  }

  private async table(compSetId: number, what: CompSetExport, signal?: AbortSignal): Promise<TableData> {
    // The pane lists the comp sets of the selected account: its reads act for that account.
    const { data, accountId } = this.session.requireSignedIn();
    const call = { accountId, signal };
    switch (what) {
      case "units":
        return unitsToTable((await data.read(UNITS, { compSetId, filters: {} }, call)).value.data);
      case "survey": {
        const survey = (await data.read(MARKET_SURVEY, { compSetId }, call)).value;
        return marketSurveyToTable(survey.items, survey.compAverage);
      }
      case "floorPlans": {
        return floorPlansToTable((await data.read(FLOOR_PLANS, { compSetId, filters: {} }, call)).value);
      }
    }
  }
}
