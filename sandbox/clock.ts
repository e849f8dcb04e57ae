/**
 * The sandbox's notion of "now". Token expiry, rate-limit windows, forecast windows and the data's
 * collection days all read it, so tests can move time instead of waiting for it.
 */
export class SandboxClock {
  private offsetMs = 0;
  private frozenAtMs: number | null = null;
  /** Called whenever time is set, advanced or released (a held export job may have come due). */
  private readonly listeners = new Set<() => void>();

  constructor(start?: number | string | Date) {
    if (start !== undefined) this.set(start);
  }

  /** Milliseconds since the Unix epoch, like Date.now(). */
  now(): number {
    return this.frozenAtMs ?? Date.now() + this.offsetMs;
  }

  /** Whole seconds since the Unix epoch (the unit of token `created_at` and rate-limit headers). */
  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /** Freezes time at the given instant; it stays there until advanced or released. */
  set(instant: number | string | Date): void {
    const ms =
      instant instanceof Date
        ? instant.getTime()
        : typeof instant === "string"
          ? Date.parse(instant)
          : instant;
    if (!Number.isFinite(ms)) throw new Error(`Invalid clock instant: ${String(instant)}`);
    this.frozenAtMs = ms;
    this.changed();
  }

  advance(ms: number): void {
    if (this.frozenAtMs === null) this.offsetMs += ms;
    else this.frozenAtMs += ms;
    this.changed();
  }

  /** Back to real time (with no offset). */
  useRealTime(): void {
    this.frozenAtMs = null;
    this.offsetMs = 0;
    this.changed();
  }

  /** Whether time stands still until set or advanced (a real-time timer would never see it move). */
  isFrozen(): boolean {
    return this.frozenAtMs !== null;
  }

  /** Calls `listener` after every set, advance or release of the clock; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Today's date in UTC as YYYY-MM-DD. */
  today(): string {
    return new Date(this.now()).toISOString().slice(0, 10);
  }
}
