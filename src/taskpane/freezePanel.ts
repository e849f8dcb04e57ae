import { element, whileBusy, type StatusLine } from "./dom";
import {
  freezeSummary,
  restoreOfferText,
  restoreSummary,
  type FreezeController,
  type RestoreOffer,
} from "./freezeController";
import { PaneInputError } from "./paneInputError";
import { scopeOf } from "./scopeChoice";

/**
 * "Freeze to values", "Freeze for sharing" (plain values with their formats) and "Restore formulas". A restore
 * is offered first: the pane says what it would put back and cost, and writes only once the person confirms
 * (Office add-ins have no window.confirm).
 */
export function wireFreezePanel(controller: FreezeController, status: StatusLine): void {
  const scope = () => scopeOf(element<HTMLSelectElement>("freeze-scope").value);
  const confirm = element("restore-confirm");
  let offered: RestoreOffer | undefined;
  const withdraw = () => {
    offered = undefined;
    confirm.hidden = true;
  };
  const freezeOn = (buttonId: string, forSharing: boolean) =>
    element<HTMLButtonElement>(buttonId).addEventListener("click", () => {
      withdraw();
      void whileBusy(element(buttonId), status, async () => {
        status.show(freezeSummary(await controller.freeze(scope(), { forSharing })));
      });
    });
  freezeOn("freeze-button", false);
  freezeOn("freeze-sharing-button", true);
  element<HTMLButtonElement>("restore-button").addEventListener("click", () => {
    withdraw();
    void whileBusy(element("restore-button"), status, async () => {
      const offer = await controller.offerRestore(scope());
      const text = restoreOfferText(offer);
      if (offer.plan.entries.length > 0 && !offer.pacing) throw new PaneInputError(text);
      status.show(text);
      if (offer.plan.entries.length === 0) return;
      offered = offer;
      const count = offer.plan.entries.length;
      element("restore-confirm-text").textContent =
        `Restore ${count === 1 ? "this formula" : `these ${count} formulas`} at the cost said at the top of the pane?`;
      confirm.hidden = false;
    });
  });
  element<HTMLButtonElement>("restore-confirm-button").addEventListener("click", () => {
    const offer = offered;
    withdraw();
    if (!offer) return;
    void whileBusy(element("restore-button"), status, async () => {
      status.show("Restoring: the formulas recalculate; frozen values stay where one cannot answer.");
      status.show(restoreSummary(await controller.restore(offer)));
    });
  });
  element<HTMLButtonElement>("restore-cancel-button").addEventListener("click", () => {
    withdraw();
    status.show("Nothing restored.");
  });
}
