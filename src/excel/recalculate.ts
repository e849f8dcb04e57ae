/**
 * Asks Excel to recalculate every formula. Non-volatile custom functions do not recalculate on their own
 * when the sign-in changes, so the pane calls this after signing in.
 */
export async function recalculateWorkbook(): Promise<void> {
  await Excel.run(async (context) => {
    context.workbook.application.calculate(Excel.CalculationType.full);
    await context.sync();
  });
}
