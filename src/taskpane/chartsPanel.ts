import { BAR_ORDERS } from "../excel/charts";
import type { ChartsController } from "./chartsController";
import { element, fieldText, whileBusy, type StatusLine } from "./dom";

/** "Chart this block": an optional figure, the order of a comparison's bars, and one button; in Excel the charts follow their blocks from the start. */
export function wireChartsPanel(controller: ChartsController, status: StatusLine, inExcel: boolean): void {
  const button = element<HTMLButtonElement>("chart-button");
  button.addEventListener("click", () => {
    void whileBusy(button, status, async () => {
      const chosen = element<HTMLSelectElement>("chart-order").value;
      const order = BAR_ORDERS.find((each) => each === chosen) ?? "block";
      status.show(await controller.chartSelected(fieldText("chart-field"), order));
    });
  });
  if (inExcel)
    void controller.follow((error) => status.error(error)).catch((error: unknown) => status.error(error));
}
