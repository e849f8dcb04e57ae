import type { ChartsController } from "./chartsController";
import { element, fieldText, whileBusy, type StatusLine } from "./dom";

/** "Chart this block": an optional figure and one button; in Excel the charts follow their blocks from the start. */
export function wireChartsPanel(controller: ChartsController, status: StatusLine, inExcel: boolean): void {
  const button = element<HTMLButtonElement>("chart-button");
  button.addEventListener("click", () => {
    void whileBusy(button, status, async () => {
      status.show(await controller.chartSelected(fieldText("chart-field")));
    });
  });
  if (inExcel)
    void controller.follow((error) => status.error(error)).catch((error: unknown) => status.error(error));
}
