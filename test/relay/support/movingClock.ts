import { abortReason } from "../../../src/data/abortableSleep";
import type { RelayClock } from "../../../relay/upstream/relayClock";
import type { CellClock } from "../../../src/functions/cellCall";

interface Sleeper {
  at: number;
  wake: () => void;
}

/** Lets queued work and I/O that is ready run (a few turns of the event loop), without moving any clock. */
export async function settle(turns = 5): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** A few real turns of the event loop with timers: room for sockets, batch windows and the work answers start. */
export async function realTurns(): Promise<void> {
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setTimeout(resolve, 2));
}

/**
 * Waits for something the relay does over real sockets (an answer, a request reaching the sandbox). It polls;
 * it never stands in for a duration under test, which only the moving clock measures.
 */
export async function until(what: string, condition: () => boolean, pollLimit = 2000): Promise<void> {
  for (let poll = 0; poll < pollLimit; poll++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`Still waiting for ${what}`);
}

/**
 * The relay's clock in a test: time stands still until the test moves it, and every sleep of the relay (budget
 * refills, pauses, deadlines) ends when the clock passes its end, in order.
 */
export class MovingClock implements RelayClock {
  private current: number;
  private sleepers: Sleeper[] = [];

  constructor(start: number = Date.now()) {
    this.current = start;
  }

  now = (): number => this.current;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const sleeper: Sleeper = {
        at: this.current + Math.max(0, ms),
        wake: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((other) => other !== sleeper);
        reject(abortReason(signal as AbortSignal));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.sleepers.push(sleeper);
    });

  /** How many sleeps are waiting for the clock. */
  get sleeping(): number {
    return this.sleepers.length;
  }

  /** Moves the clock `ms` on, waking each sleeper whose end it passes, in order, and letting its work run. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      const due = this.sleepers.filter((sleeper) => sleeper.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.current = Math.max(this.current, due.at);
      this.sleepers = this.sleepers.filter((sleeper) => sleeper !== due);
      due.wake();
      await settle();
    }
    this.current = target;
    await settle();
  }
}

/**
 * The settled value of `promise`, which must settle while the clock stands still: a request the relay holds for
 * a pause or a budget (until the clock moves) fails here instead of hanging the test.
 */
export async function withoutMovingClock<T>(what: string, promise: Promise<T>): Promise<T> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await until(what, () => settled);
  return promise;
}

/** The cells' time bounds (src/functions/cellCall.ts) on a moving clock. */
export function cellClockOn(clock: MovingClock): CellClock {
  return {
    now: clock.now,
    after: (ms, then) => {
      const cancel = new AbortController();
      clock.sleep(ms, cancel.signal).then(then, () => undefined);
      return () => cancel.abort();
    },
  };
}
