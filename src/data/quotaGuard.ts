import { BULK_EXPORT_QUOTA_SEEN_LIVE } from "../api/contractLimits";
import { ApiError } from "../api/errors";

export interface QuotaGuardSettings {
  /**
   * The largest share (0 to 1) of the account's bulk export quota one pull may spend without asking. 10 % by
   * default: the quota is the whole account's, shared by everyone on it and renewed by contract, so a pull that
   * takes more than a tenth of it is one a person should mean; ordinary blocks (250 ids) pass under the smallest
   * quota seen live, while the 2,230 properties one block spent unasked (45 % of 5,000) is held.
   */
  maxShare: number;
  /** The account's quota in properties, when the person knows it (their contract names it). */
  quotaLimit?: number;
  /**
   * Whether pulls are held at all. The team relay turns it off: it is no person's pane, it passes each account's
   * quota answer on as the service gave it, and each person's add-in holds their own pulls.
   */
  holdsPulls: boolean;
}

export const DEFAULT_QUOTA_GUARD: QuotaGuardSettings = { maxShare: 0.1, holdsPulls: true };

/** What is known of one account's quota. */
export interface QuotaStanding {
  limit: number;
  /** Who named the limit: the service (its quota error), the person (a setting) or nobody (the size seen live). */
  limitFrom: "service" | "setting" | "assumed";
  /** Properties left: known only once the service has named the usage (its quota error), less what was spent since. */
  left?: number;
  /** Properties this sign-in spent (the service's count of what it returned). */
  spent: number;
  /** The most one pull may spend without asking. */
  perPull: number;
  /** Epoch ms when the service named the limit and usage (perhaps before a reload), when it has. */
  learntAt?: number;
}

/** A pull the guard stopped before it spent anything. */
export interface HeldPull {
  accountId: number;
  properties: number;
  standing: QuotaStanding;
  /** The cell's and the pane's words for it. */
  message: string;
}

interface Reported {
  limit: number;
  usage: number;
  /** `spent` when the service said so: what was spent after that is used too. */
  spentThen: number;
  /** Epoch ms when the service said so. */
  learntAt: number;
}

/**
 * What the guard learnt, to keep beyond this runtime (src/data/quotaMemory.ts): per account the limit and the
 * usage as last known (the service's figure plus what was spent since), with when the service named them, and
 * the share one pull may spend when the person set it.
 */
export interface LearntQuota {
  accounts: Record<number, { limit: number; usage: number; learntAt: number }>;
  maxShare?: number;
}

const whole = (count: number) => count.toLocaleString("en-US");

/**
 * Holds a pull that would spend more of the bulk export quota than is left, or more than the set share of it,
 * before it spends, and says how much it would spend and what is left. The guard costs no request: the service
 * tells what is left only when the quota runs out (contract: `x-bulk-export-quota`), so the guard counts what
 * this sign-in spent and learns the limit and usage from the service's quota error. A person allows a held pull
 * once (the pane), or raises the share.
 */
export class BulkExportQuotaGuard {
  private settings: QuotaGuardSettings;
  private readonly spentBy = new Map<number, number>();
  private readonly reported = new Map<number, Reported>();
  /** Per account, what a pull allowed once may still spend: pulls (or a pull's pages) draw on it until it is gone. */
  private readonly allowed = new Map<number, number>();
  private lastHeld: HeldPull | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly learntListeners = new Set<() => void>();
  /** The share a person set (configure), as opposed to the default: the one kept with what was learnt. */
  private chosenShare: number | undefined;

  constructor(
    settings: Partial<QuotaGuardSettings> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.settings = { ...DEFAULT_QUOTA_GUARD, ...settings };
  }

  configure(settings: Partial<QuotaGuardSettings>): void {
    this.settings = { ...this.settings, ...settings };
    if (settings.maxShare !== undefined && settings.maxShare !== this.chosenShare) {
      this.chosenShare = settings.maxShare;
      this.learnt();
    }
  }

  private learnt(): void {
    for (const listener of this.learntListeners) listener();
  }

  /** Tells `listener` when what is worth keeping changes: a quota error's figures, spending after one, the share. */
  onLearnt(listener: () => void): () => void {
    this.learntListeners.add(listener);
    return () => this.learntListeners.delete(listener);
  }

  /** What was learnt, to keep (see LearntQuota). */
  learntQuota(): LearntQuota {
    const accounts: LearntQuota["accounts"] = {};
    for (const [accountId, reported] of this.reported) {
      const spentSince = (this.spentBy.get(accountId) ?? 0) - reported.spentThen;
      accounts[accountId] = {
        limit: reported.limit,
        usage: reported.usage + spentSince,
        learntAt: reported.learntAt,
      };
    }
    return this.chosenShare === undefined ? { accounts } : { accounts, maxShare: this.chosenShare };
  }

  /**
   * What an earlier runtime of the same person learnt (a reload): taken where this one has learnt nothing newer.
   * Usage counts from there; this sign-in's own spending is added on top as usual.
   */
  restore(kept: LearntQuota): void {
    for (const [id, known] of Object.entries(kept.accounts)) {
      const accountId = Number(id);
      const mine = this.reported.get(accountId);
      if (mine && mine.learntAt >= known.learntAt) continue;
      this.reported.set(accountId, {
        limit: known.limit,
        usage: known.usage,
        spentThen: this.spentBy.get(accountId) ?? 0,
        learntAt: known.learntAt,
      });
    }
    if (kept.maxShare !== undefined && this.chosenShare === undefined) {
      this.chosenShare = kept.maxShare;
      this.settings = { ...this.settings, maxShare: kept.maxShare };
    }
  }

  get current(): Readonly<QuotaGuardSettings> {
    return this.settings;
  }

  /** The service counted `properties` returned properties toward the account's quota. */
  spent(accountId: number, properties: number): void {
    this.spentBy.set(accountId, (this.spentBy.get(accountId) ?? 0) + properties);
    // What is left of a quota the service named moves with each pull: worth keeping.
    if (properties > 0 && this.reported.has(accountId)) this.learnt();
  }

  /** Properties spent by this sign-in, per account. */
  usage(): Record<number, number> {
    return Object.fromEntries(this.spentBy);
  }

  /** A quota error names the account's limit and usage: the only place the service tells them. */
  learn(accountId: number, error: unknown): void {
    if (!(error instanceof ApiError) || error.kind !== "quota_exceeded") return;
    const { quotaLimit, quotaUsage } = error.details;
    if (quotaLimit === undefined) return;
    this.reported.set(accountId, {
      limit: quotaLimit,
      usage: quotaUsage ?? quotaLimit,
      spentThen: this.spentBy.get(accountId) ?? 0,
      learntAt: this.now(),
    });
    this.learnt();
  }

  standing(accountId: number): QuotaStanding {
    const spent = this.spentBy.get(accountId) ?? 0;
    const reported = this.reported.get(accountId);
    const limit = this.settings.quotaLimit ?? reported?.limit ?? BULK_EXPORT_QUOTA_SEEN_LIVE;
    const limitFrom = this.settings.quotaLimit !== undefined ? "setting" : reported ? "service" : "assumed";
    const standing: QuotaStanding = {
      limit,
      limitFrom,
      spent,
      perPull: Math.floor(limit * this.settings.maxShare),
    };
    if (reported) {
      standing.left = Math.max(0, limit - reported.usage - (spent - reported.spentThen));
      standing.learntAt = reported.learntAt;
    }
    return standing;
  }

  /**
   * Before a pull that would spend up to `properties` of the account's quota: returns when it may go, throws a
   * `quota_guard` error (the pull held, nothing spent) when it would take more than is left or than one pull
   * may. A pull allowed once passes, drawing on the allowance.
   */
  check(accountId: number, properties: number): void {
    if (!this.settings.holdsPulls || properties <= 0) return;
    const allowance = this.allowed.get(accountId) ?? 0;
    if (properties <= allowance) {
      if (allowance === properties) this.allowed.delete(accountId);
      else this.allowed.set(accountId, allowance - properties);
      return;
    }
    const standing = this.standing(accountId);
    const overLeft = standing.left !== undefined && properties > standing.left;
    if (!overLeft && properties <= standing.perPull) return;
    const limit = `${whole(standing.limit)}${standing.limitFrom === "assumed" ? " (assumed: the service has not named it)" : ""}`;
    const reason = overLeft
      ? `more than the ${whole(standing.left as number)} left of ${limit}`
      : `more than the ${Math.round(this.settings.maxShare * 100)} % one pull may spend (${whole(standing.perPull)} of ${limit})`;
    const message =
      `Held before spending: this pull would spend up to ${whole(properties)} properties of the bulk export ` +
      `quota, ${reason}. To allow it once: Rent Market pane, Account, Usage, "Allow this pull".`;
    this.lastHeld = { accountId, properties, standing, message };
    for (const listener of this.listeners) listener();
    throw new ApiError("quota_guard", message);
  }

  /** The last pull held, until it is allowed. */
  get held(): HeldPull | undefined {
    return this.lastHeld;
  }

  /** Lets the held pull through once (its account's next pulls may spend up to its size); returns it. */
  allowHeld(): HeldPull | undefined {
    const held = this.lastHeld;
    if (!held) return undefined;
    this.allowed.set(held.accountId, held.properties);
    this.lastHeld = undefined;
    for (const listener of this.listeners) listener();
    return held;
  }

  /** Tells `listener` when a pull is held or allowed (the pane shows it). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
