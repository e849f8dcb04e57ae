import { PaneInputError } from "./paneInputError";

/**
 * How the pane's controllers reach the workbook: `Excel.run` in Excel, a mock workbook in tests. Controllers
 * take one of these instead of calling `Excel.run` themselves so their logic runs without Office.
 */
export type ExcelRunner = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

export const runInExcel: ExcelRunner = (batch) => Excel.run(batch);

/** Where the page runs in a plain browser: the sections that write to a workbook say why they cannot. */
export const outsideExcel: ExcelRunner = () =>
  Promise.reject(new PaneInputError("This needs a workbook: open Rent Market from Excel's Home tab."));
