import { defaultTokenUrl } from "../api/config";
import type { Session, SignedIn } from "../session/session";
import { wirePlanLine } from "./planPanel";
import { element, fieldText, setChecked, whileBusy, type StatusLine } from "./dom";
import { wireAccountChoice } from "./accountChoicePanel";
import type { SettingsStore } from "./settingsStore";
import type { SignInController, SignInForm } from "./signInController";

export interface SignInPanelDependencies {
  session: Session;
  controller: SignInController;
  settings: SettingsStore;
  status: StatusLine;
}

const METHODS: SignInForm["method"][] = ["client", "manual", "relay"];

function selectedMethod(): SignInForm["method"] {
  return METHODS.find((method) => element<HTMLInputElement>(`method-${method}`).checked === true) ?? "client";
}

function selectMethod(chosen: SignInForm["method"]): void {
  for (const method of METHODS) setChecked(element(`method-${method}`), method === chosen);
}

function showMethodFields(): void {
  const method = selectedMethod();
  element("client-fields").hidden = method !== "client";
  element("manual-fields").hidden = method !== "manual";
  element("relay-fields").hidden = method !== "relay";
}

/** What the sign-in form holds now (the connection check reads it too). */
export function readSignInForm(): SignInForm {
  return {
    serviceUrl: fieldText("service-url"),
    tokenUrl: fieldText("token-url"),
    method: selectedMethod(),
    clientId: fieldText("client-id"),
    clientSecret: fieldText("client-secret"),
    accessToken: fieldText("access-token"),
    relayKey: fieldText("relay-key"),
    remember: element<HTMLInputElement>("remember-secret").checked === true,
    postingTime: fieldText("posting-time"),
  };
}

/** Secrets leave the form as soon as they have been used, kept or refused. */
function clearSecrets(): void {
  element<HTMLInputElement>("client-secret").value = "";
  element<HTMLInputElement>("access-token").value = "";
  element<HTMLInputElement>("relay-key").value = "";
}

function render(state: SignedIn | undefined): void {
  element("sign-in-section").hidden = state !== undefined;
  element("signed-in-section").hidden = state === undefined;
  if (!state) return;
  element("signed-in-identity").textContent = state.identity;
  element("signed-in-service").textContent = state.client.config.serviceUrl;
  const picker = element<HTMLSelectElement>("account-picker");
  picker.replaceChildren(
    ...state.accounts.map((account) => new Option(`${account.name} (${account.id})`, String(account.id))),
  );
  picker.value = String(state.accountId);
}

function accountName(state: SignedIn): string {
  const account = state.accounts.find((candidate) => candidate.id === state.accountId);
  return account ? `${account.name} (${account.id})` : String(state.accountId);
}

/** The sign-in form, the signed-in state with the account picker, and sign-out. */
export function wireSignInPanel({ session, controller, settings, status }: SignInPanelDependencies): void {
  const saved = settings.load();
  element<HTMLInputElement>("service-url").value = saved.serviceUrl;
  element<HTMLInputElement>("token-url").value = saved.tokenUrl;
  element<HTMLInputElement>("client-id").value = saved.clientId;
  element<HTMLInputElement>("posting-time").value = saved.postingTime;
  selectMethod(saved.method);
  showMethodFields();

  // The group hears each radio's change (and a click on its label) and says so with its own.
  element("sign-in-method").addEventListener("change", showMethodFields);
  element("service-url").addEventListener("change", () => {
    try {
      element<HTMLInputElement>("token-url").value = defaultTokenUrl(fieldText("service-url"));
    } catch {
      // Not a URL yet: signing in will say what is wrong with it.
    }
  });

  element<HTMLFormElement>("sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault();
    status.show("Signing in…");
    void whileBusy(element("sign-in-button"), status, async () => {
      try {
        const state = await controller.signIn(readSignInForm());
        status.show(`Signed in. RENT formulas use ${accountName(state)}.`);
      } finally {
        clearSecrets();
      }
    });
  });

  wireAccountChoice(session, controller, status, accountName);

  element<HTMLButtonElement>("sign-out-button").addEventListener("click", () => {
    void whileBusy(element("sign-out-button"), status, async () => {
      await controller.signOut();
      status.show(
        "Signed out. Your cached answers and any kept secret were deleted from this computer; the cells keep what they show.",
      );
    });
  });

  session.onChange(render);
  render(session.current);
  wirePlanLine(session);
  status.show(session.current ? "Signed in." : "Sign in to use RENT formulas.");
  controller.resume().then(
    (state) => {
      if (state)
        status.show(`Signed in again with the kept secret. RENT formulas use ${accountName(state)}.`);
    },
    (error: unknown) => status.error(error),
  );
}
