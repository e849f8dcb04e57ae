import type { PacingOptions } from "../../src/data/tokenBucket";
import type { Budget } from "../store/relayStore";

interface Waiter {
  grant: () => void;
}

/** What the service reported last, or the live limit until it has said anything. */
export class ReportedLimit {
  constructor(private pacing: PacingOptions) {}

  get current(): PacingOptions {
    return this.pacing;
  }

  /** Learns the limit from a response's X-RateLimit-Limit and X-RateLimit-Reset-After (window seconds). */
  learn(headers: Headers): void {
    const limit = Number(headers.get("x-ratelimit-limit"));
    const windowSeconds = Number(headers.get("x-ratelimit-reset-after"));
    if (!headers.has("x-ratelimit-limit") || !Number.isInteger(limit) || limit < 1) return;
    const windowMs =
      headers.has("x-ratelimit-reset-after") && Number.isFinite(windowSeconds) && windowSeconds > 0
        ? windowSeconds * 1000
        : this.pacing.windowMs;
    if (limit === this.pacing.limit && windowMs === this.pacing.windowMs) return;
    // Half the limit may leave at once, the rest is spread over the window (as the add-in paces itself).
    this.pacing = { limit, windowMs, burst: Math.max(1, Math.floor(limit / 2)) };
  }
}

/**
 * The one door to the service for the whole team. Requests wait in one queue per person and are let through
 * in turn, one person after the other, each when the shared budget has a request to spend: a refresh of
 * thousands of cells queues behind itself, not in front of a colleague's one cell.
 */
export class TeamGate {
  private readonly queues = new Map<string, Waiter[]>();
  private turn: string[] = [];
  private pumping = false;

  constructor(
    private readonly budget: Budget,
    private readonly limit: ReportedLimit,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** People waiting, with how many requests each. */
  waiting(): Record<string, number> {
    return Object.fromEntries([...this.queues].map(([user, queue]) => [user, queue.length]));
  }

  acquire(user: string): Promise<void> {
    return new Promise<void>((grant) => {
      const queue = this.queues.get(user);
      if (queue) queue.push({ grant });
      else {
        this.queues.set(user, [{ grant }]);
        this.turn.push(user);
      }
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.turn.length > 0) {
        const pausedUntil = await this.budget.pausedUntil();
        if (pausedUntil > this.now()) {
          await this.sleep(pausedUntil - this.now());
          continue;
        }
        const { limit, windowMs, burst } = this.limit.current;
        const waitMs = await this.budget.take(limit, windowMs, burst);
        if (waitMs > 0) {
          await this.sleep(waitMs);
          continue;
        }
        const user = this.turn.shift() as string;
        const queue = this.queues.get(user) as Waiter[];
        (queue.shift() as Waiter).grant();
        if (queue.length > 0) this.turn.push(user);
        else this.queues.delete(user);
      }
    } finally {
      this.pumping = false;
    }
  }
}
