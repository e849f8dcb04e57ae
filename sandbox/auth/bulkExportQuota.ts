/**
 * The per-account bulk export quota: unique properties returned by bulk details and property
 * search. A request that would pass the limit is refused whole and does not count.
 */
export class BulkExportQuota {
  private readonly usage = new Map<number, number>();

  constructor(private limit: number) {}

  configure(limit: number): void {
    this.limit = limit;
  }

  /** Adds `count` to the account's usage when it fits; otherwise leaves usage as it was. */
  tryConsume(accountId: number, count: number): { ok: boolean; limit: number; usage: number } {
    const current = this.usage.get(accountId) ?? 0;
    if (current + count > this.limit) return { ok: false, limit: this.limit, usage: current };
    this.usage.set(accountId, current + count);
    return { ok: true, limit: this.limit, usage: current + count };
  }

  usageOf(accountId: number): number {
    return this.usage.get(accountId) ?? 0;
  }

  limitValue(): number {
    return this.limit;
  }

  reset(): void {
    this.usage.clear();
  }
}
