import {
  freezeRentFormulas,
  restoreRentFormulas,
  type FreezeResult,
  type RestoreResult,
} from "../excel/freeze";
import type { FormulaScope } from "../excel/formulaScope";
import { rememberedCellAsOf } from "../functions/cellAsOf";
import { frozenAsOfText } from "./asOfText";
import type { ExcelRunner } from "./excelRunner";

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** At most this many cell addresses in a message; the rest are counted. */
const LISTED_CELLS = 5;

function cellList(cells: readonly { sheetName: string; address: string }[]): string {
  const listed = cells.slice(0, LISTED_CELLS).map((cell) => `${cell.sheetName}!${cell.address}`);
  const more = cells.length - listed.length;
  return more > 0 ? `${listed.join(", ")} and ${more} more` : listed.join(", ");
}

export function freezeSummary(result: FreezeResult): string {
  const parts: string[] = [];
  if (result.frozen.length === 0 && result.stillCalculating.length === 0)
    return "No RENT formulas here to freeze.";
  if (result.frozen.length > 0)
    parts.push(
      `Replaced ${plural(result.frozen.length, "RENT formula", "RENT formulas")} with ${result.frozen.length === 1 ? "its value" : "their values"}. Restore formulas puts ${result.frozen.length === 1 ? "it" : "them"} back.`,
    );
  const commented = result.frozen.filter((entry) => entry.asOf !== undefined).length;
  if (commented > 0)
    parts.push(
      `The as-of (when frozen, the data's date, when fetched) is in a comment on ${commented === 1 ? "its cell" : `each of ${commented} cells`}.`,
    );
  if (result.stillCalculating.length > 0)
    parts.push(
      `${plural(result.stillCalculating.length, "formula was", "formulas were")} still calculating and stayed as ${result.stillCalculating.length === 1 ? "it is" : "they are"} (${cellList(result.stillCalculating)}): freeze again once ${result.stillCalculating.length === 1 ? "it shows a value" : "they show values"}.`,
    );
  return parts.join(" ");
}

export function restoreSummary(result: RestoreResult): string {
  const parts: string[] =
    result.restored.length === 0
      ? ["No frozen RENT formulas here to restore."]
      : [`Restored ${plural(result.restored.length, "RENT formula", "RENT formulas")}.`];
  if (result.missingSheets.length > 0)
    parts.push(
      `Formulas of deleted sheets are still kept: ${result.missingSheets.join(", ")}. Recreate a sheet with that name to restore them.`,
    );
  return parts.join(" ");
}

/** "Freeze to values" and "Restore formulas" for the selection, the sheet or the workbook. */
export class FreezeController {
  constructor(
    private readonly runExcel: ExcelRunner,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Replaces the formulas by their values and writes each one's as-of beside them (a comment on its cell); for
   * sharing, plain values with their number formats, which Excel 2021 and older show as this Excel does.
   */
  freeze(scope: FormulaScope, { forSharing = false }: { forSharing?: boolean } = {}): Promise<FreezeResult> {
    const frozenAt = this.now();
    return this.runExcel((context) =>
      freezeRentFormulas(context, scope, {
        forSharing,
        // What the sign-in's cache kept counts too: a cell calculated before a reload still has its as-of.
        asOfText: async (cell) =>
          frozenAsOfText(await rememberedCellAsOf(cell.sheetName, cell.address), frozenAt),
      }),
    );
  }

  restore(scope: FormulaScope): Promise<RestoreResult> {
    return this.runExcel((context) => restoreRentFormulas(context, scope));
  }
}
