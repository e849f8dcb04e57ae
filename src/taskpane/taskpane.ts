import { defaultTokenUrl, SANDBOX_CONFIG } from "../api/config";
import { recalculateWorkbook } from "../excel/recalculate";
import { session, type SignedIn } from "../session/session";
import { describeError } from "./messages";

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The task pane page lacks #${id}.`);
  return found as T;
}

function showStatus(text: string, isError = false): void {
  const status = element<HTMLParagraphElement>("status");
  status.textContent = text;
  status.classList.toggle("error", isError);
}

function render(state: SignedIn | undefined): void {
  element("sign-in-section").hidden = state !== undefined;
  element("signed-in-section").hidden = state === undefined;
  if (!state) return;
  element("signed-in-identity").textContent = state.identity;
  const picker = element<HTMLSelectElement>("account-picker");
  picker.replaceChildren(
    ...state.accounts.map((account) => new Option(`${account.name} (${account.id})`, String(account.id))),
  );
  picker.value = String(state.accountId);
}

async function recalculateIfInExcel(inExcel: boolean): Promise<void> {
  if (inExcel) await recalculateWorkbook();
}

function wire(inExcel: boolean): void {
  const serviceUrl = element<HTMLInputElement>("service-url");
  const tokenUrl = element<HTMLInputElement>("token-url");
  serviceUrl.value = SANDBOX_CONFIG.serviceUrl;
  tokenUrl.value = SANDBOX_CONFIG.tokenUrl;
  serviceUrl.addEventListener("change", () => {
    try {
      tokenUrl.value = defaultTokenUrl(serviceUrl.value);
    } catch {
      // Not a URL yet: sign-in will say so.
    }
  });

  const form = element<HTMLFormElement>("sign-in-form");
  const button = element<HTMLButtonElement>("sign-in-button");
  const secret = element<HTMLInputElement>("client-secret");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const clientId = element<HTMLInputElement>("client-id").value.trim();
    if (clientId === "" || secret.value === "") {
      showStatus("Enter the client ID and the client secret.", true);
      return;
    }
    button.disabled = true;
    showStatus("Signing in…");
    session
      .signIn(
        { serviceUrl: serviceUrl.value, tokenUrl: tokenUrl.value },
        { kind: "client", clientId, clientSecret: secret.value },
      )
      .then(async () => {
        secret.value = "";
        showStatus("Signed in. RENT formulas use the account chosen here.");
        await recalculateIfInExcel(inExcel);
      })
      .catch((error: unknown) => showStatus(describeError(error), true))
      .finally(() => {
        button.disabled = false;
      });
  });

  element<HTMLSelectElement>("account-picker").addEventListener("change", (event) => {
    const accountId = Number((event.target as HTMLSelectElement).value);
    try {
      session.selectAccount(accountId);
      showStatus(`Formulas now use account ${accountId}.`);
      void recalculateIfInExcel(inExcel).catch((error: unknown) => showStatus(describeError(error), true));
    } catch (error) {
      showStatus(describeError(error), true);
    }
  });

  element("sign-out-button").addEventListener("click", () => {
    session.signOut();
    showStatus("Signed out.");
    void recalculateIfInExcel(inExcel).catch((error: unknown) => showStatus(describeError(error), true));
  });

  session.onChange(render);
  render(session.current);
}

void Office.onReady((info) => wire(info.host === Office.HostType.Excel));
