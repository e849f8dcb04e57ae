import { refreshRentFormulas } from "./refresh";

/**
 * Has Excel calculate the RENT formulas of this workbook again, after a sign-in or an account change changed
 * what they show. Non-volatile custom functions are not dirty, so a plain recalculation skips them; a full one
 * (Excel.CalculationType.full) marks every cell of every open workbook dirty, which would spend requests on the
 * RENT cells of other workbooks too. Entering this workbook's RENT formulas again re-runs exactly them, answered
 * from the cache where it can (unlike Refresh, nothing bypasses it).
 */
export async function recalculateWorkbook(): Promise<void> {
  await Excel.run((context) => refreshRentFormulas(context, { kind: "workbook" }));
}
