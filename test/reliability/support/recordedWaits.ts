/**
 * The data layer's clock, sleep and jitter for a soak: waits cost no real time (a stepping clock,
 * test/support/steppingClock.ts) and each one is recorded with what asked for it, so that a test can check the
 * waits against the product's retry policy instead of sitting through them.
 *
 * The request executor draws one jitter value and sleeps on it at once (src/data/requestExecutor.ts): a sleep
 * right after a draw is a retry's backoff; any other sleep is the gate's (a pause after a 429, or pacing).
 */
import { steppingClock } from "../../support/steppingClock";
import type { Sleep } from "../../../src/data/abortableSleep";

export type RecordedWait = { kind: "backoff"; ms: number; jitter: number } | { kind: "gate"; ms: number };

export function recordedWaits(random: () => number = Math.random) {
  // From the real time, so that anything dated by the data layer (cache entries, periods) is dated as usual.
  const stepping = steppingClock(Date.now());
  const waits: RecordedWait[] = [];
  let drawn: number | undefined;
  const sleep: Sleep = (ms, signal) => {
    waits.push(drawn === undefined ? { kind: "gate", ms } : { kind: "backoff", ms, jitter: drawn });
    drawn = undefined;
    return stepping.sleep(ms, signal);
  };
  const jitter = () => {
    drawn = random();
    return drawn;
  };
  return { waits, now: stepping.now, sleep, random: jitter };
}
