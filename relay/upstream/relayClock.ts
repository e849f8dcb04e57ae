import { abortableSleep, type Sleep } from "../../src/data/abortableSleep";

/**
 * The relay's sense of time: when budgets refill, pauses end and upstream deadlines pass. One object, so a test
 * can move it instead of waiting.
 */
export interface RelayClock {
  now: () => number;
  /** Waits `ms` of this clock's time; a signal that fires first ends the wait with its reason. */
  sleep: Sleep;
}

export const REAL_CLOCK: RelayClock = { now: Date.now, sleep: abortableSleep };
