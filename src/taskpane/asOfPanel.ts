import { followSelection, readSelectedFormula } from "../excel/selectedFormula";
import { workbookIdentity } from "../excel/workbookMemory";
import { session } from "../session/session";
import { onCellAsOf, rememberedCellAsOf, useWorkbookIdentity } from "../functions/cellAsOf";
import { cellAsOfLines } from "./asOfText";
import { element, fillList, whileBusy, type StatusLine } from "./dom";
import type { ExcelRunner } from "./excelRunner";

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
  // The workbook's identity names its cells' as-of kept across reloads: read (or made) once, then shown again.
  const identified = runExcel(workbookIdentity).then(useWorkbookIdentity);
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
