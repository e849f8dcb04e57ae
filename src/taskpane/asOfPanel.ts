import { followSelection, readSelectedFormula } from "../excel/selectedFormula";
import { cellAsOf, onCellAsOf } from "../functions/cellAsOf";
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
    fillList(list, cellAsOfLines(selected, cellAsOf(selected.sheetName, selected.address), Date.now()));
  };
  const showOrSay = () => void show().catch((error: unknown) => status.error(error));
  element<HTMLButtonElement>("asof-button").addEventListener("click", () => {
    void whileBusy(element("asof-button"), status, show);
  });
  if (!inExcel) return;
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
}
