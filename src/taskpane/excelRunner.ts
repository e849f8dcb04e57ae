/**
 * How the pane's controllers reach the workbook: `Excel.run` in Excel, a mock workbook in tests. Controllers
 * take one of these instead of calling `Excel.run` themselves so their logic runs without Office.
 */
export type ExcelRunner = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

export const runInExcel: ExcelRunner = (batch) => Excel.run(batch);
