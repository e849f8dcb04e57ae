import { ServiceClient } from "../api/client";
import { ACCOUNTS, sendOperation, type Account } from "../data/endpoints";
import { normaliseConfig, type ServiceConfig } from "../api/config";
import { ApiError } from "../api/errors";
import { TokenManager, type Credentials } from "../api/tokens";
import { DataLayer, type DataLayerOptions } from "../data/dataLayer";
import { keepLearntQuota } from "../data/quotaMemory";
import type { LearntQuota } from "../data/quotaGuard";
import { cacheOwnerOf } from "./cacheOwner";

export interface SignedIn {
  client: ServiceClient;
  /** The data layer of this sign-in: every read of the cells and the pane goes through it. */
  data: DataLayer;
  /** Who signed in, for display: the client id, or "access token". */
  identity: string;
  /**
   * Whose answers the cache holds and whose account choice is remembered: the client id, or the hash of a
   * personal key or token (never the secret itself).
   */
  owner: string;
  /**
   * Signed in with a team relay key: the service URL is the relay's (relay/), which answers a few requests of
   * its own beside the contract's (a browser's download link).
   */
  viaRelay: boolean;
  accounts: Account[];
  accountId: number;
}

type Listener = (state: SignedIn | undefined) => void;

/** Who signed in, for display (never a secret). */
const IDENTITY_OF: { [K in Credentials["kind"]]: (credentials: Credentials) => string } = {
  client: (credentials) => (credentials.kind === "client" ? credentials.clientId : ""),
  manual: () => "access token",
  relay: () => "team relay key",
};

/**
 * Resolves once the service has accepted the credentials, rejects with its refusal. A client id and secret are
 * checked by the token request; a pasted token or a relay key is used as it is, so only a request the service
 * answers (one account, the smallest page) tells whether it is good.
 */
async function acceptedByService(
  client: ServiceClient,
  credentials: Credentials,
  tokens: TokenManager,
): Promise<void> {
  if (credentials.kind === "client") {
    await tokens.token();
    return;
  }
  await client.call((init) =>
    sendOperation(client.api, ACCOUNTS.operation, {
      ...init,
      ...ACCOUNTS.request({ page: 1, per_page: 1 }, undefined),
    }),
  );
}

/**
 * The one sign-in of the shared runtime. The task pane and the custom functions run in the same JavaScript
 * runtime and import this same instance, so signing in from the pane makes every RENT cell work at once.
 */
export class Session {
  private state: SignedIn | undefined;
  private readonly listeners = new Set<Listener>();
  /**
   * What each person's quota guard knew when they signed out (no secret: an account's quota figures and the
   * share set), for their next sign-in in this runtime: their cache goes at sign-out, and a guard that forgot a
   * quota the service named would hold the pulls it let through before.
   */
  private readonly quotaAtSignOut = new Map<string, LearntQuota>();

  constructor(
    private readonly fetchImpl?: typeof fetch,
    /** Settings of each sign-in's data layer (pacing, retries, cache database), for tests and benchmarks. */
    private dataOptions: Omit<DataLayerOptions, "client" | "caller"> = {},
  ) {}

  /**
   * Settings for the data layer of the next sign-in. The shared runtime keeps the defaults (the live
   * service's limits); tests, benchmarks and the local preview tune them for the sandbox.
   */
  useDataOptions(options: Omit<DataLayerOptions, "client" | "caller">): void {
    this.dataOptions = options;
  }

  get current(): SignedIn | undefined {
    return this.state;
  }

  private resumes = new Set<Promise<unknown>>();

  /**
   * Settles when no kept sign-in is being resumed any more; undefined when none is. Excel on the web calculates
   * a workbook's RENT cells as it opens, before the pane has resumed the person's kept sign-in: such a cell
   * waits for the resume rather than showing "Not signed in" over its saved value.
   */
  get resuming(): Promise<void> | undefined {
    if (this.resumes.size === 0) return undefined;
    return Promise.allSettled([...this.resumes]).then(() => undefined);
  }

  /** Marks `resume` (a kept sign-in being resumed) as under way until it settles, and returns it. */
  whileResuming<T>(resume: Promise<T>): Promise<T> {
    this.resumes.add(resume);
    const done = () => this.resumes.delete(resume);
    resume.then(done, done);
    return resume;
  }

  /**
   * Gets a token and the account list; the session changes only when both succeed. Another person's sign-in
   * ends the current one as a sign-out does (their cache goes) once the new credentials are accepted, so
   * refused credentials leave the current sign-in standing. The pane offers sign-in only when nobody is
   * signed in; the same person signing in again keeps their cache.
   */
  async signIn(
    config: ServiceConfig,
    credentials: Credentials,
    /** When the service posts each day's data ("HH:MM" US Eastern), when the person moved it. */
    postingTime?: string,
  ): Promise<SignedIn> {
    const checked = normaliseConfig(config);
    const tokens = new TokenManager({ tokenUrl: checked.tokenUrl, credentials, fetch: this.fetchImpl });
    const client = new ServiceClient(checked, tokens, this.fetchImpl);
    const identity = IDENTITY_OF[credentials.kind](credentials);
    const owner = await cacheOwnerOf(credentials);
    if (this.state && this.state.owner !== owner) {
      await acceptedByService(client, credentials, tokens);
      await this.signOut();
    }
    // One data layer per sign-in: its gate, token, cache keys and in-flight requests belong to this person.
    const data = new DataLayer({
      ...this.dataOptions,
      ...(postingTime === undefined ? {} : { postingTime }),
      client,
      caller: owner,
    });
    await tokens.token();
    const accounts = (await data.accounts({ fresh: true })).value;
    // Cells recalculated from here on find the stored answers in memory, without a read each.
    await data.cache.loaded;
    // What an earlier runtime learnt of the quota (a nearly spent one) holds pulls from the first cell on.
    await keepLearntQuota(data, owner, this.quotaAtSignOut.get(owner));
    const first = accounts[0];
    if (!first) throw new ApiError("forbidden", "Signed in, but this client may not act for any account.");
    this.state = {
      client,
      data,
      identity,
      owner,
      viaRelay: credentials.kind === "relay",
      accounts,
      accountId: first.id,
    };
    this.notify();
    return this.state;
  }

  /**
   * Ends the sign-in. Listeners hear it first (cells still waiting let go of their calls); then the data layer
   * closes: it sends nothing more with this person's token, and the person's cached answers, in memory and in
   * IndexedDB, are removed, so the next person on this computer starts from nothing.
   */
  async signOut(): Promise<void> {
    const ending = this.state;
    this.state = undefined;
    if (ending) this.quotaAtSignOut.set(ending.owner, ending.data.quota.learntQuota());
    const closing = ending?.data.close();
    this.notify();
    await closing;
  }

  /** The default account for formulas that do not name one. */
  selectAccount(accountId: number): void {
    const state = this.requireSignedIn();
    if (!state.accounts.some((account) => account.id === accountId)) {
      throw new ApiError("forbidden", `Account ${accountId} is not one this sign-in may act for.`);
    }
    this.state = { ...state, accountId };
    this.notify();
  }

  requireSignedIn(): SignedIn {
    if (!this.state) {
      throw new ApiError("unauthorized", "Not signed in: open the Rent Market pane (Home tab) and sign in.");
    }
    return this.state;
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener(this.state);
  }
}

/** The shared runtime's single session. */
export const session = new Session();
