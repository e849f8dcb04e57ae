import { catalogueFields } from "./fieldFacts";
import { tierOfPath } from "./planLimits";
import { tierValues } from "./schema";
import type { Tier } from "./tiers";

/** The fields of a property record above the lowest tier that sees records (ownership and sale: pro-plus). */
const TIERED_PROPERTY_FIELDS = Object.entries(catalogueFields("property")).flatMap(([field, facts]) =>
  facts.tier === undefined ? [] : [{ field, tier: facts.tier }],
);

const rank = (tier: Tier) => tierValues.indexOf(tier);

/**
 * The caller's plan (access tier) as the service's answers show it. No operation of the service names it, so it
 * is read from what the sign-in's own requests met, at no request of its own: an operation of a tier (`x-required-
 * tier`) answered means at least that tier, refused with a 403 means below it; a property record carrying the
 * fields of a tier (`x-tier`) means at least that tier, records without them below it.
 */
export class PlanSeen {
  private lowest: Tier = tierValues[0] as Tier;
  private highest: Tier = tierValues.at(-1) as Tier;
  private readonly listeners = new Set<() => void>();

  /** A request of `path` (relative to the contract's /v1) was answered (`ok`) or refused with a 403. */
  sawOperation(path: string, ok: boolean): void {
    const needed = tierOfPath(path);
    if (needed === undefined) return;
    if (ok) this.atLeast(needed.tier as Tier);
    else this.below(needed.tier as Tier);
  }

  /** Property records as the service sent them: a tier's fields there or left out of every record. */
  sawPropertyRecords(records: readonly Readonly<Record<string, unknown>>[]): void {
    if (records.length === 0) return;
    for (const { field, tier } of TIERED_PROPERTY_FIELDS) {
      if (records.some((record) => field in record)) this.atLeast(tier);
      else this.below(tier);
    }
  }

  /** "pro", or the range the answers leave open ("pro or pro-plus"), or undefined before any says. */
  get plan(): string | undefined {
    const open = tierValues.slice(rank(this.lowest), rank(this.highest) + 1);
    if (open.length === tierValues.length) return undefined;
    return open.join(" or ");
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private atLeast(tier: Tier): void {
    if (rank(tier) > rank(this.lowest) && rank(tier) <= rank(this.highest))
      this.moved(() => (this.lowest = tier));
  }

  private below(tier: Tier): void {
    const under = tierValues[rank(tier) - 1];
    if (under !== undefined && rank(under) < rank(this.highest) && rank(under) >= rank(this.lowest))
      this.moved(() => (this.highest = under));
  }

  private moved(change: () => void): void {
    change();
    for (const listener of this.listeners) listener();
  }
}
