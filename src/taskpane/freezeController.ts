import type { PacingOptions } from "../data/tokenBucket";
import { freezeRentFormulas, type FreezeResult } from "../excel/freeze";
import type { FormulaScope } from "../excel/formulaScope";
import type { FrozenFormula } from "../excel/frozenFormulaStore";
import {
  keepFrozen,
  planRestore,
  putBackFormulas,
  unansweredRestores,
  type RestorePlan,
} from "../excel/restore";
import { cellAsOf, rememberedCellAsOf } from "../functions/cellAsOf";
import type { Session } from "../session/session";
import { frozenAsOfText } from "./asOfText";
import type { ExcelRunner } from "./excelRunner";
import { PaneInputError } from "./paneInputError";
import { costWords, recalculationCost, type RecalculationCost } from "./recalculationCost";
import { waitUntilSettled, type SettleTiming } from "./settledCells";

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

/** A restore the pane offers: what it would put back and what that costs, weighed before anything is written. */
export interface RestoreOffer {
  readonly plan: RestorePlan;
  readonly cost: RecalculationCost;
  /** The pacing the cost's time is told at; absent while signed out (the restore is refused). */
  readonly pacing?: PacingOptions;
}

/** What a restore did, once its formulas settled. */
export interface RestoreReport {
  readonly restored: readonly FrozenFormula[];
  readonly missingSheets: readonly string[];
  /** Formulas that answered with an error: their frozen values were put back and they stay kept. */
  readonly keptFrozen: readonly { sheetName: string; address: string; why: string }[];
}

const NOTHING_TO_RESTORE = "No frozen RENT formulas here to restore.";

const signInFirst = (formulas: number) =>
  `Sign in first: restoring puts back ${plural(formulas, "formula", "formulas")}, which recalculate.`;

/** What the pane says before a restore: nothing to do, sign in first, or the cost to confirm. */
export function restoreOfferText(offer: RestoreOffer): string {
  const count = offer.plan.entries.length;
  if (count === 0) return NOTHING_TO_RESTORE;
  if (!offer.pacing) return signInFirst(count);
  return (
    `Restoring puts back ${plural(count, "RENT formula", "RENT formulas")}, which recalculate: ` +
    `${costWords(offer.cost, offer.pacing)} Frozen values stay where a formula cannot answer.`
  );
}

export function restoreSummary(result: RestoreReport): string {
  const keptFrozen = result.keptFrozen;
  const answered = result.restored.length - keptFrozen.length;
  const parts: string[] =
    result.restored.length === 0
      ? [NOTHING_TO_RESTORE]
      : answered > 0
        ? [`Restored ${plural(answered, "RENT formula", "RENT formulas")}.`]
        : [];
  if (keptFrozen.length > 0) {
    const listed = keptFrozen
      .slice(0, LISTED_CELLS)
      .map((cell) => `${cell.sheetName}!${cell.address}: ${cell.why}`);
    const more = keptFrozen.length - listed.length;
    parts.push(
      `${plural(keptFrozen.length, "formula", "formulas")} answered with an error, so ${keptFrozen.length === 1 ? "its" : "their"} frozen values stay and ${keptFrozen.length === 1 ? "it stays" : "they stay"} kept for Restore formulas (${listed.join("; ")}${more > 0 ? `; and ${more} more` : ""}).`,
    );
  }
  if (result.missingSheets.length > 0)
    parts.push(
      `Formulas of deleted sheets are still kept: ${result.missingSheets.join(", ")}. Recreate a sheet with that name to restore them.`,
    );
  return parts.join(" ");
}

export interface FreezeControllerOptions {
  now?: () => number;
  /** When the restored cells are looked at until they have answered. */
  settle?: SettleTiming;
}

/** "Freeze to values" and "Restore formulas" for the selection, the sheet or the workbook. */
export class FreezeController {
  private readonly now: () => number;

  constructor(
    private readonly runExcel: ExcelRunner,
    private readonly session: Pick<Session, "current">,
    private readonly options: FreezeControllerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

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

  /** What restoring the scope would put back and cost; writes nothing. */
  async offerRestore(scope: FormulaScope): Promise<RestoreOffer> {
    const plan = await this.runExcel((context) => planRestore(context, scope));
    const cost = recalculationCost(plan.entries);
    const signedIn = this.session.current;
    if (!signedIn || plan.entries.length === 0) return { plan, cost };
    return { plan, cost, pacing: (await signedIn.data.stats()).requests.limit };
  }

  /**
   * Puts the offered formulas back, waits until they have answered, and puts the frozen values back where a
   * formula answers with an error (it stays kept): values the person froze stay until their formulas have
   * answers. Refused while signed out: every restored formula would answer "not signed in".
   */
  async restore(offer: RestoreOffer): Promise<RestoreReport> {
    if (!this.session.current) throw new PaneInputError(signInFirst(offer.plan.entries.length));
    const result = await this.runExcel((context) => putBackFormulas(context, offer.plan));
    await waitUntilSettled(
      this.runExcel,
      result.frozenValues.map((block) => block.cell),
      this.options.settle,
    );
    const unanswered = await this.runExcel((context) => unansweredRestores(context, result));
    await this.runExcel((context) =>
      keepFrozen(
        context,
        unanswered.map(({ block }) => block),
        result.property,
      ),
    );
    return {
      restored: result.restored,
      missingSheets: result.missingSheets,
      keptFrozen: unanswered.map(({ block, error, errorAddress }) => ({
        sheetName: block.cell.sheetName,
        address: block.cell.address,
        // The message its call ended with, when this runtime saw it (Office.js does not read it from the cell).
        why: cellAsOf(block.cell.sheetName, block.cell.address)?.error ?? `${errorAddress} shows ${error}`,
      })),
    };
  }
}
