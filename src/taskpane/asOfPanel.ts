import { followSelection, readSelectedFormula } from "../excel/selectedFormula";
import { readWorkbookIdentity, workbookIdentity } from "../excel/workbookMemory";
import { session } from "../session/session";
import { onCellAsOf, rememberedCellAsOf, useWorkbookIdentity } from "../functions/cellAsOf";
import { cellAsOfLines } from "./asOfText";
import { element, fillList, whileBusy, type StatusLine } from "./dom";
import type { ExcelRunner } from "./excelRunner";

/**
 * The person's acts after which the workbook may carry its identity: a sign-in by hand, Refresh, Freeze and
 * Restore each recalculate or write the workbook anyway. Opening the pane (and a sign-in it resumes) changes
 * nothing in the file: no "save changes?" for a file only looked at, and no failure on a read-only one.
 */
const ACTS_THAT_CHANGE_THE_WORKBOOK = [
  ["sign-in-form", "submit"],
  ["refresh-button", "click"],
  ["freeze-button", "click"],
  ["freeze-sharing-button", "click"],
  ["restore-button", "click"],
] as const;

/**
 * The workbook's identity names its cells' as-of kept across reloads: read at once if the file has one, else
 * made at the person's first act above. Until then cells' as-of wait in memory.
 */
function identifyWorkbook(runExcel: ExcelRunner): Promise<void> {
  return runExcel(readWorkbookIdentity).then((kept) => {
    if (kept !== undefined) return useWorkbookIdentity(kept);
    return new Promise<void>((resolve, reject) => {
      const make = () => {
        for (const [id, event] of ACTS_THAT_CHANGE_THE_WORKBOOK) element(id).removeEventListener(event, make);
        runExcel(workbookIdentity).then(useWorkbookIdentity).then(resolve, reject);
      };
      for (const [id, event] of ACTS_THAT_CHANGE_THE_WORKBOOK) element(id).addEventListener(event, make);
    });
  });
}

/**
 * "As of" for the selected cell: shown when the selection changes, when that cell's formula answers again, and
 * on request.
 */
export function wireAsOfPanel(runExcel: ExcelRunner, status: StatusLine, inExcel: boolean): void {
  const list = element("asof-lines");
  let shownCell: { sheetName: string; address: string } | undefined;
  const show = async () => {
    const selected = await runExcel(readSelectedFormula);
    shownCell = selected;
    const asOf = await rememberedCellAsOf(selected.sheetName, selected.address);
    fillList(list, cellAsOfLines(selected, asOf, Date.now()));
  };
  const showOrSay = () => void show().catch((error: unknown) => status.error(error));
  element<HTMLButtonElement>("asof-button").addEventListener("click", () => {
    void whileBusy(element("asof-button"), status, show);
  });
  if (!inExcel) return;
  const identified = identifyWorkbook(runExcel);
  onCellAsOf((sheetName, address) => {
    if (
      shownCell &&
      shownCell.sheetName.toUpperCase() === sheetName.toUpperCase() &&
      shownCell.address.toUpperCase() === address.toUpperCase()
    )
      showOrSay();
  });
  void runExcel((context) => followSelection(context, showOrSay)).catch((error: unknown) =>
    status.error(error),
  );
  showOrSay();
  void identified.then(showOrSay, (error: unknown) => status.error(error));
  // What was kept is the signed-in person's: a sign-in (after a reload) shows it, a sign-out takes it away.
  session.onChange(showOrSay);
}
