import type { Session, SignedIn } from "../session/session";
import { element, type StatusLine } from "./dom";
import { costWords } from "./recalculationCost";
import type { AccountChangeOffer, SignInController } from "./signInController";

/** What the pane says before a change of account that recalculates formulas. */
export function accountChangeText(offer: AccountChangeOffer, name: string): string {
  const { cost, pacing } = offer;
  if (!pacing) return `RENT formulas will use ${name}.`;
  const formulas = `${cost.formulas.toLocaleString("en-US")} RENT ${cost.formulas === 1 ? "formula" : "formulas"}`;
  return `Choosing ${name} recalculates ${formulas} for it: ${costWords(cost, pacing)}`;
}

/**
 * The account picker. A change that recalculates the workbook's RENT formulas says what that costs and waits
 * for the person to confirm it; until then the formulas keep their account and the picker shows it.
 */
export function wireAccountChoice(
  session: Session,
  controller: SignInController,
  status: StatusLine,
  accountName: (state: SignedIn) => string,
): void {
  const picker = element<HTMLSelectElement>("account-picker");
  const confirm = element("account-confirm");
  let offered: AccountChangeOffer | undefined;
  const withdraw = () => {
    offered = undefined;
    confirm.hidden = true;
  };
  const choose = (accountId: number) =>
    controller.selectAccount(accountId).then(
      () => {
        // The cells recalculate for the account first; a sign-out meanwhile has said what it did.
        const state = session.current;
        if (state) status.show(`RENT formulas now use ${accountName(state)}.`);
      },
      (error: unknown) => status.error(error),
    );
  picker.addEventListener("change", () => {
    withdraw();
    const state = session.current;
    const accountId = Number(picker.value);
    if (!state) return;
    // The formulas keep their account until the change is confirmed: the picker says so meanwhile.
    picker.value = String(state.accountId);
    controller.offerAccountChange(accountId).then(
      (offer) => {
        if (!offer.pacing) return choose(accountId);
        const account = state.accounts.find((candidate) => candidate.id === accountId);
        const name = account ? `${account.name} (${account.id})` : String(accountId);
        offered = offer;
        status.show(accountChangeText(offer, name));
        element("account-confirm-text").textContent =
          `Change to ${name} at the cost said at the top of the pane?`;
        confirm.hidden = false;
      },
      (error: unknown) => status.error(error),
    );
  });
  element("account-confirm-button").addEventListener("click", () => {
    const offer = offered;
    withdraw();
    if (offer) void choose(offer.accountId);
  });
  element("account-cancel-button").addEventListener("click", () => {
    withdraw();
    const state = session.current;
    status.show(
      state ? `Account unchanged: RENT formulas still use ${accountName(state)}.` : "Account unchanged.",
    );
  });
  session.onChange(withdraw);
}
