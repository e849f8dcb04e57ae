import { normaliseConfig, type ServiceConfig } from "../api/config";
import { ApiError } from "../api/errors";
import type { Credentials } from "../api/tokens";
import { DEFAULT_POSTING_TIME, parsePostingTime } from "../data/freshnessSchedule";
import type { Session, SignedIn } from "../session/session";
import type { PacingOptions } from "../data/tokenBucket";
import { PaneInputError } from "./paneInputError";
import { recalculationCost, type FormulaToRecalculate, type RecalculationCost } from "./recalculationCost";
import type { CredentialVault } from "./secretVault";
import type { SettingsStore } from "./settingsStore";

/** What the sign-in form holds. */
export interface SignInForm {
  serviceUrl: string;
  tokenUrl: string;
  method: "client" | "manual" | "relay";
  clientId: string;
  clientSecret: string;
  accessToken: string;
  /** A personal key of the team relay. */
  relayKey?: string;
  /** Keep the secret (encrypted, in this computer's add-in storage) to sign in again after a restart. */
  remember: boolean;
  /** When the service posts each day's data, "HH:MM" US Eastern (07:00 unless the vendor moved it). */
  postingTime?: string;
}

export interface SignInDependencies {
  session: Session;
  settings: SettingsStore;
  vault: CredentialVault;
  /**
   * Runs after a sign-in: recalculates the RENT cells that could not answer without one (those showing #N/A or
   * still calculating). Every other cell keeps its value: a sign-in changes nothing it shows.
   */
  afterSignIn?: () => Promise<void>;
  /** Runs after the formulas' default account changed: recalculates the RENT cells, whose answers it changes. */
  afterAccountChange?: () => Promise<void>;
  /** The formulas `afterAccountChange` enters again (the workbook's RENT formulas), to say the cost first. */
  accountChangeFormulas?: () => Promise<readonly FormulaToRecalculate[]>;
}

/** A change of the formulas' account, weighed before it happens: the recalculation it costs. */
export interface AccountChangeOffer {
  readonly accountId: number;
  readonly cost: RecalculationCost;
  /** The pacing the cost's time is told at; absent when the change recalculates nothing. */
  readonly pacing?: PacingOptions;
}

/** The credentials the form holds, or what to type when it lacks them. */
export function credentialsOf(form: SignInForm): Credentials {
  if (form.method === "relay") {
    const key = (form.relayKey ?? "").trim();
    if (key === "") throw new PaneInputError("Paste the personal key your relay admin gave you.");
    return { kind: "relay", key };
  }
  if (form.method === "manual") {
    const accessToken = form.accessToken.trim();
    if (accessToken === "") throw new PaneInputError("Paste the access token you created on the service.");
    return { kind: "manual", accessToken };
  }
  const clientId = form.clientId.trim();
  if (clientId === "" || form.clientSecret === "")
    throw new PaneInputError("Enter the client ID and the client secret.");
  return { kind: "client", clientId, clientSecret: form.clientSecret };
}

/** The service settings of the form, checked. */
export function configOf(form: Pick<SignInForm, "serviceUrl" | "tokenUrl">): ServiceConfig {
  try {
    return normaliseConfig({ serviceUrl: form.serviceUrl, tokenUrl: form.tokenUrl });
  } catch (error) {
    throw new PaneInputError(error instanceof Error ? error.message : "Check the service settings.");
  }
}

/** The form's posting time, checked: cached answers are fresh until the service's next posting at it. */
export function postingTimeOf(form: Pick<SignInForm, "postingTime">): string {
  const text = form.postingTime?.trim() || DEFAULT_POSTING_TIME;
  try {
    parsePostingTime(text);
  } catch (error) {
    throw new PaneInputError(error instanceof Error ? error.message : "Check the posting time.");
  }
  return text;
}

/**
 * Sign-in, sign-out and the account choice, over the shared session. Settings (service URL, client id,
 * account per identity) are remembered in the runtime's storage; a secret only in the SecretVault, and only
 * when asked. Nothing here writes to the document.
 */
export class SignInController {
  constructor(private readonly deps: SignInDependencies) {}

  async signIn(form: SignInForm): Promise<SignedIn> {
    const config = configOf(form);
    const credentials = credentialsOf(form);
    const postingTime = postingTimeOf(form);
    const signedIn = await this.deps.session.signIn(config, credentials, postingTime);
    this.deps.settings.save({
      serviceUrl: config.serviceUrl,
      tokenUrl: config.tokenUrl,
      // A sign-in with a token keeps the client id remembered from before for the next client sign-in.
      clientId: credentials.kind === "client" ? credentials.clientId : this.deps.settings.load().clientId,
      method: credentials.kind,
      postingTime,
    });
    this.useRememberedAccount(config.serviceUrl, signedIn);
    await this.deps.afterSignIn?.();
    // Last: a vault that cannot keep the secret reports it, but the sign-in stands.
    if (form.remember) await this.deps.vault.keep(credentials);
    else await this.deps.vault.forget();
    return this.deps.session.requireSignedIn();
  }

  /**
   * Signs in again with kept credentials when the pane starts. A refused secret is forgotten (it will not
   * work next time either); when the service cannot be reached it stays kept for the next start.
   */
  resume(): Promise<SignedIn | undefined> {
    // Cells calculated meanwhile wait for it (Session.resuming) rather than say "Not signed in".
    return this.deps.session.whileResuming(this.resumeKept());
  }

  private async resumeKept(): Promise<SignedIn | undefined> {
    if (this.deps.session.current) return this.deps.session.current;
    const credentials = await this.deps.vault.recall();
    if (!credentials) return undefined;
    const settings = this.deps.settings.load();
    try {
      const signedIn = await this.deps.session.signIn(
        configOf(settings),
        credentials,
        postingTimeOf(settings),
      );
      this.useRememberedAccount(configOf(settings).serviceUrl, signedIn);
      await this.deps.afterSignIn?.();
      return this.deps.session.requireSignedIn();
    } catch (error) {
      if (error instanceof ApiError && error.kind === "unauthorized") await this.deps.vault.forget();
      throw error;
    }
  }

  /**
   * Ends the sign-in: the session drops its token and the person's cached answers, and any kept secret is
   * deleted. Nothing is recalculated: every cell keeps what it shows, and a cell still calculating stays so
   * until the next sign-in recalculates it.
   */
  async signOut(): Promise<void> {
    await this.deps.session.signOut();
    await this.deps.vault.forget();
  }

  /** Sets the default account of the formulas and remembers it for this identity. */
  /** What choosing `accountId` would recalculate and cost; changes nothing. */
  async offerAccountChange(accountId: number): Promise<AccountChangeOffer> {
    const state = this.deps.session.requireSignedIn();
    const formulas = accountId === state.accountId ? [] : ((await this.deps.accountChangeFormulas?.()) ?? []);
    const cost = recalculationCost(formulas);
    if (cost.formulas === 0) return { accountId, cost };
    return { accountId, cost, pacing: (await state.data.stats()).requests.limit };
  }

  async selectAccount(accountId: number): Promise<void> {
    const { session, settings } = this.deps;
    session.selectAccount(accountId);
    const state = session.requireSignedIn();
    settings.rememberAccount(state.client.config.serviceUrl, state.owner, accountId);
    await this.deps.afterAccountChange?.();
  }

  private useRememberedAccount(serviceUrl: string, signedIn: SignedIn): void {
    const remembered = this.deps.settings.rememberedAccount(serviceUrl, signedIn.owner);
    if (remembered !== undefined && signedIn.accounts.some((account) => account.id === remembered)) {
      this.deps.session.selectAccount(remembered);
    }
  }
}
