import { ApiError } from "../../src/api/errors";
import { abortReason } from "../../src/data/abortableSleep";
import { watchAbort } from "../../src/data/abortWatch";
import { rateLimitedUntil } from "../../src/data/rateLimitedUntil";
import { DEFAULT_LONGEST_WAIT_MS } from "../../src/data/requestGate";
import type { PacingOptions } from "../../src/data/tokenBucket";
import type { Budget } from "../store/relayStore";
import { REAL_CLOCK, type RelayClock } from "./relayClock";

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

/** A request waiting at the gate, on behalf of one or more people (a batch or a shared read serves several). */
export interface GateTicket {
  /** Settles when the request may be sent; fails when it is refused or its signal fires first. */
  readonly granted: Promise<void>;
  /**
   * Someone else's read waits for this same request: it may go out on their turn too, until they call the
   * returned `leave` (their read has ended), after which it is in their queue no longer.
   */
  join(person: string): () => void;
}

export interface TeamGateOptions {
  clock?: RelayClock;
  /**
   * Requests one person may have waiting. Past it, that person's next request is refused with a 429 at once:
   * a queue no budget can drain in time only holds their requests until their own time bound runs out.
   */
  maxQueuedPerPerson?: number;
  /**
   * The longest pause of the service's that requests sit out (the add-in's: half a cell's bound). A longer one
   * refuses every waiting and every new request at once, with the time to come back.
   */
  longestWaitMs?: number;
}

/** As many as the live limit lets out in one burst: a person with more waiting waits longer than a window. */
export const DEFAULT_MAX_QUEUED_PER_PERSON = 50;

interface Ticket {
  /** Whose queues it waits in, with how many of each one's reads (or their own request) wait for it. */
  people: Map<string, number>;
  settled: boolean;
  settle: (error?: Error) => void;
}

/**
 * The one door to the service for the whole team. Requests wait in one queue per person and are let through
 * in turn, one person after the other, each when the shared budget has a request to spend: a refresh of
 * thousands of cells queues behind itself, not in front of a colleague's one cell. A request that serves
 * several people (a batch, a read others wait on) waits in each one's queue and goes on the first turn it
 * meets. A request whose client has gone leaves its queues and never takes a token.
 */
export class TeamGate {
  private readonly queues = new Map<string, Ticket[]>();
  /** People with requests waiting, in the order of their next turn. */
  private turn: string[] = [];
  private pumping = false;
  private readonly clock: RelayClock;
  private readonly maxQueued: number;
  private readonly longestWaitMs: number;

  constructor(
    private readonly budget: Budget,
    private readonly limit: ReportedLimit,
    options: TeamGateOptions = {},
  ) {
    this.clock = options.clock ?? REAL_CLOCK;
    this.maxQueued = options.maxQueuedPerPerson ?? DEFAULT_MAX_QUEUED_PER_PERSON;
    this.longestWaitMs = options.longestWaitMs ?? DEFAULT_LONGEST_WAIT_MS;
  }

  /** People waiting, with how many requests each. */
  waiting(): Record<string, number> {
    return Object.fromEntries([...this.queues].map(([user, queue]) => [user, queue.length]));
  }

  /** Waits for a turn of one of `people`; see `enter`. */
  acquire(people: string | string[], signal?: AbortSignal): Promise<void> {
    return this.enter(people, signal).granted;
  }

  /**
   * Queues a request for `people` (the first is who asked; others share it). Refused at once when every one of
   * them, and of the `sharers` (people whose reads it serves, who join it as long as they wait), has a full
   * queue; leaves the queue without a token when `signal` fires.
   */
  enter(people: string | string[], signal?: AbortSignal, sharers: readonly string[] = []): GateTicket {
    const names = [...new Set(typeof people === "string" ? [people] : people)];
    let settle: (error?: Error) => void = () => undefined;
    const granted = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve());
    });
    granted.catch(() => undefined);
    // Those it was entered for hold it for good: it is their own request.
    const ticket: Ticket = {
      people: new Map(names.map((name) => [name, Number.POSITIVE_INFINITY])),
      settled: false,
      settle,
    };
    const unavailable = this.refusal([...names, ...sharers], signal);
    if (unavailable) {
      ticket.settled = true;
      settle(unavailable);
      return { granted, join: () => () => undefined };
    }
    let unwatch: () => void = () => undefined;
    ticket.settle = (error) => {
      if (ticket.settled) return;
      ticket.settled = true;
      unwatch();
      this.remove(ticket);
      settle(error);
    };
    for (const name of names) this.queueFor(name).push(ticket);
    if (signal) unwatch = watchAbort(signal, () => ticket.settle(abortReason(signal)));
    void this.pump();
    return { granted, join: (person) => this.join(ticket, person) };
  }

  private join(ticket: Ticket, person: string): () => void {
    if (ticket.settled) return () => undefined;
    const holds = ticket.people.get(person) ?? 0;
    ticket.people.set(person, holds + 1);
    if (holds === 0) this.queueFor(person).push(ticket);
    let left = false;
    return () => {
      if (left || ticket.settled) return;
      left = true;
      const remaining = (ticket.people.get(person) ?? 1) - 1;
      if (remaining > 0) {
        ticket.people.set(person, remaining);
        return;
      }
      ticket.people.delete(person);
      this.leaveQueue(ticket, person);
    };
  }

  private refusal(names: string[], signal: AbortSignal | undefined): Error | undefined {
    if (signal?.aborted) return abortReason(signal);
    const full = names.every((name) => (this.queues.get(name)?.length ?? 0) >= this.maxQueued);
    if (!full) return undefined;
    const waitingInAll = new Set([...this.queues.values()].flat()).size;
    const { limit, windowMs } = this.limit.current;
    const retryAfterSeconds = Math.max(1, Math.ceil((waitingInAll * windowMs) / limit / 1000));
    return new ApiError(
      // Not "rate_limited": that kind would pause the relay's data layer for the whole team.
      "forbidden",
      `You have ${this.maxQueued} requests waiting for the team's share of the service already. Try again in ${retryAfterSeconds} seconds.`,
      { status: 429, serviceMessage: "Too Many Requests", retryAfterSeconds },
    );
  }

  private queueFor(person: string): Ticket[] {
    let queue = this.queues.get(person);
    if (!queue) {
      queue = [];
      this.queues.set(person, queue);
      this.turn.push(person);
    }
    return queue;
  }

  private remove(ticket: Ticket): void {
    for (const person of ticket.people.keys()) this.leaveQueue(ticket, person);
  }

  private leaveQueue(ticket: Ticket, person: string): void {
    const queue = this.queues.get(person);
    if (!queue) return;
    const index = queue.indexOf(ticket);
    if (index >= 0) queue.splice(index, 1);
    if (queue.length === 0) {
      this.queues.delete(person);
      this.turn = this.turn.filter((name) => name !== person);
    }
  }

  private refuseAll(pausedUntil: number): void {
    const refusal = rateLimitedUntil(pausedUntil, this.clock.now());
    const waiting = new Set([...this.queues.values()].flat());
    for (const ticket of waiting) ticket.settle(refusal);
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.turn.length > 0) {
        const pausedUntil = await this.budget.pausedUntil();
        const pausedForMs = pausedUntil - this.clock.now();
        if (pausedForMs > this.longestWaitMs) {
          this.refuseAll(pausedUntil);
          continue;
        }
        if (pausedForMs > 0) {
          await this.clock.sleep(pausedForMs);
          continue;
        }
        const { limit, windowMs, burst } = this.limit.current;
        const waitMs = await this.budget.take(limit, windowMs, burst);
        if (waitMs > 0) {
          await this.clock.sleep(waitMs);
          continue;
        }
        // Whoever is next now (people may have left while the budget answered): the token is theirs.
        const person = this.turn.shift();
        if (person === undefined) continue;
        const ticket = (this.queues.get(person) as Ticket[])[0] as Ticket;
        ticket.settle();
        if (this.queues.has(person)) this.turn.push(person);
      }
    } finally {
      this.pumping = false;
    }
  }
}
