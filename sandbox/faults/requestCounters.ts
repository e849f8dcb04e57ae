/**
 * Counts requests per route path (the contract's path, e.g. `/v1/properties/bulk_details`), so
 * tests can assert how many calls the add-in really made.
 */
export class RequestCounters {
  private readonly counts = new Map<string, number>();

  increment(path: string): void {
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
  }

  get(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  /** A snapshot: path -> count. */
  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  total(): number {
    let sum = 0;
    for (const count of this.counts.values()) sum += count;
    return sum;
  }

  reset(): void {
    this.counts.clear();
  }
}
