import { TokenBucket } from "../../src/data/tokenBucket";
import type { Budget, Counters, Flights, SharedResponse } from "./relayStore";

/** Single-flight within one process (one instance has nobody else to share a request with). */
export class LocalFlights implements Flights {
  private readonly claims = new Map<
    string,
    { done: Promise<SharedResponse | undefined>; settle: (r?: SharedResponse) => void }
  >();

  async claim(key: string): Promise<boolean> {
    if (this.claims.has(key)) return false;
    let settle: (response?: SharedResponse) => void = () => undefined;
    const done = new Promise<SharedResponse | undefined>((resolve) => {
      settle = resolve;
    });
    this.claims.set(key, { done, settle });
    return true;
  }

  async finish(key: string, response: SharedResponse | undefined): Promise<void> {
    const claim = this.claims.get(key);
    this.claims.delete(key);
    claim?.settle(response);
  }

  async waitFor(key: string, timeoutMs: number): Promise<SharedResponse | undefined> {
    const claim = this.claims.get(key);
    if (!claim) return undefined;
    const timeout = new Promise<undefined>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      void claim.done.finally(() => clearTimeout(timer));
    });
    return Promise.race([claim.done, timeout]);
  }
}

/** The budget of one process: the add-in's own token bucket, rebuilt when the service reports another limit. */
export class LocalBudget implements Budget {
  private bucket: TokenBucket | undefined;
  private shape = "";
  private pausedUntilMs = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async take(limit: number, windowMs: number, burst: number): Promise<number> {
    const shape = `${limit}/${windowMs}/${burst}`;
    if (!this.bucket || shape !== this.shape) {
      this.bucket = new TokenBucket({ limit, windowMs, burst }, this.now);
      this.shape = shape;
    }
    return this.bucket.take();
  }

  async pauseUntil(untilMs: number): Promise<void> {
    this.pausedUntilMs = Math.max(this.pausedUntilMs, untilMs);
  }

  async pausedUntil(): Promise<number> {
    return this.pausedUntilMs;
  }
}

/** Counters in memory; a group with a TTL disappears when it lapses (e.g. one rate-limit window). */
export class LocalCounters implements Counters {
  private readonly groups = new Map<string, { fields: Map<string, number>; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async add(group: string, field: string, amount: number, ttlMs?: number): Promise<void> {
    const held = this.live(group) ?? {
      fields: new Map<string, number>(),
      expiresAt: Number.POSITIVE_INFINITY,
    };
    if (ttlMs !== undefined && held.expiresAt === Number.POSITIVE_INFINITY)
      held.expiresAt = this.now() + ttlMs;
    held.fields.set(field, (held.fields.get(field) ?? 0) + amount);
    this.groups.set(group, held);
  }

  async read(group: string): Promise<Record<string, number>> {
    return Object.fromEntries(this.live(group)?.fields ?? []);
  }

  private live(group: string) {
    const held = this.groups.get(group);
    if (held && held.expiresAt <= this.now()) {
      this.groups.delete(group);
      return undefined;
    }
    return held;
  }
}
