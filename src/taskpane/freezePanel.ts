import { element, whileBusy, type StatusLine } from "./dom";
import { freezeSummary, restoreSummary, type FreezeController } from "./freezeController";
import { scopeOf } from "./scopeChoice";

/** "Freeze to values" and "Restore formulas". */
export function wireFreezePanel(controller: FreezeController, status: StatusLine): void {
  const scope = () => scopeOf(element<HTMLSelectElement>("freeze-scope").value);
  element<HTMLButtonElement>("freeze-button").addEventListener("click", () => {
    void whileBusy(element("freeze-button"), status, async () => {
      status.show(freezeSummary(await controller.freeze(scope())));
    });
  });
  element<HTMLButtonElement>("restore-button").addEventListener("click", () => {
    void whileBusy(element("restore-button"), status, async () => {
      status.show(restoreSummary(await controller.restore(scope())));
    });
  });
}
