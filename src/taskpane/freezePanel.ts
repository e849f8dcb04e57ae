import { element, whileBusy, type StatusLine } from "./dom";
import { freezeSummary, restoreSummary, type FreezeController } from "./freezeController";
import { scopeOf } from "./scopeChoice";

/** "Freeze to values", "Freeze for sharing" (plain values with their formats) and "Restore formulas". */
export function wireFreezePanel(controller: FreezeController, status: StatusLine): void {
  const scope = () => scopeOf(element<HTMLSelectElement>("freeze-scope").value);
  const freezeOn = (buttonId: string, forSharing: boolean) =>
    element<HTMLButtonElement>(buttonId).addEventListener("click", () => {
      void whileBusy(element(buttonId), status, async () => {
        status.show(freezeSummary(await controller.freeze(scope(), { forSharing })));
      });
    });
  freezeOn("freeze-button", false);
  freezeOn("freeze-sharing-button", true);
  element<HTMLButtonElement>("restore-button").addEventListener("click", () => {
    void whileBusy(element("restore-button"), status, async () => {
      status.show(restoreSummary(await controller.restore(scope())));
    });
  });
}
