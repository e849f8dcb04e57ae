import { RELAY_CONFIG, SANDBOX_CONFIG } from "../api/config";
import { DEFAULT_POSTING_TIME } from "../data/freshnessSchedule";

/** The part of `localStorage` the store uses, so tests can pass a Map-backed stand-in. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type SignInMethod = "client" | "manual" | "relay";

const METHODS: readonly SignInMethod[] = ["client", "manual", "relay"];

/** What the pane remembers between sessions. Never a secret or a token: those go to the SecretVault only. */
export interface PaneSettings {
  serviceUrl: string;
  tokenUrl: string;
  clientId: string;
  method: SignInMethod;
  /** When the service posts each day's data, "HH:MM" US Eastern: what a cached answer is fresh until. */
  postingTime: string;
}

const PREFIX = "rent-market.";
const SETTINGS_KEY = `${PREFIX}settings`;
const ACCOUNT_KEY_PREFIX = `${PREFIX}account.`;
const QUOTA_SHARE_KEY = `${PREFIX}quota-share`;

/** A build served by the team relay signs in there by default; other builds go to the local sandbox. */
const DEFAULTS: PaneSettings = RELAY_CONFIG
  ? { ...RELAY_CONFIG, clientId: "", method: "relay", postingTime: DEFAULT_POSTING_TIME }
  : { ...SANDBOX_CONFIG, clientId: "", method: "client", postingTime: DEFAULT_POSTING_TIME };

function isSettings(value: unknown): value is Partial<PaneSettings> {
  return typeof value === "object" && value !== null;
}

/**
 * The pane's settings in the runtime's storage (localStorage: per user and per add-in origin), not in the
 * document, so a shared workbook carries nobody's service URL, client id or account choice.
 */
export class SettingsStore {
  constructor(private readonly storage: KeyValueStorage) {}

  load(): PaneSettings {
    let stored: unknown;
    try {
      stored = JSON.parse(this.storage.getItem(SETTINGS_KEY) ?? "{}");
    } catch {
      stored = {};
    }
    if (!isSettings(stored)) return { ...DEFAULTS };
    const text = (value: unknown, fallback: string) => (typeof value === "string" ? value : fallback);
    return {
      serviceUrl: text(stored.serviceUrl, DEFAULTS.serviceUrl),
      tokenUrl: text(stored.tokenUrl, DEFAULTS.tokenUrl),
      clientId: text(stored.clientId, DEFAULTS.clientId),
      method: METHODS.find((method) => method === stored.method) ?? DEFAULTS.method,
      postingTime: text(stored.postingTime, DEFAULTS.postingTime),
    };
  }

  save(settings: PaneSettings): void {
    const { serviceUrl, tokenUrl, clientId, method, postingTime } = settings;
    this.storage.setItem(
      SETTINGS_KEY,
      JSON.stringify({ serviceUrl, tokenUrl, clientId, method, postingTime }),
    );
  }

  /** The account last chosen by this sign-in identity at this service, if any. */
  rememberedAccount(serviceUrl: string, identity: string): number | undefined {
    const stored = Number(this.storage.getItem(accountKey(serviceUrl, identity)));
    return Number.isInteger(stored) && stored > 0 ? stored : undefined;
  }

  rememberAccount(serviceUrl: string, identity: string, accountId: number): void {
    this.storage.setItem(accountKey(serviceUrl, identity), String(accountId));
  }

  /** The share of the bulk export quota one pull may spend without asking (0 to 1), if the person set one. */
  quotaShare(): number | undefined {
    const stored = Number(this.storage.getItem(QUOTA_SHARE_KEY) ?? NaN);
    return stored > 0 && stored <= 1 ? stored : undefined;
  }

  rememberQuotaShare(share: number): void {
    this.storage.setItem(QUOTA_SHARE_KEY, String(share));
  }
}

function accountKey(serviceUrl: string, identity: string): string {
  return `${ACCOUNT_KEY_PREFIX}${serviceUrl}|${identity}`;
}

/** A storage that forgets on reload: used where localStorage is unavailable (private modes, some hosts). */
export class MemoryStorage implements KeyValueStorage {
  private readonly values = new Map<string, string>();
  getItem(key: string): string | null {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.values.set(key, value);
  }
  removeItem(key: string): void {
    this.values.delete(key);
  }
  /** Every value kept, as "key=value" (what a look into the runtime's storage would find). */
  entries(): string[] {
    return [...this.values].map(([key, value]) => `${key}=${value}`);
  }
}
