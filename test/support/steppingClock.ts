import { abortReason, type Sleep } from "../../src/data/abortableSleep";
import { drained } from "./drained";

/**
 * A clock for code that takes `now` and `sleep`: it moves only when that code sleeps, by exactly the time it
 * asked for, so waits (backoffs, pacing, pauses) cost no real time and are counted rather than timed.
 */
export function steppingClock(startMs = 0) {
  const clock = { nowMs: startMs, sleeps: [] as number[] };
  const now = () => clock.nowMs;
  const sleep: Sleep = async (ms, signal) => {
    clock.sleeps.push(ms);
    clock.nowMs += Math.max(0, ms);
    // Whatever was due before the wake-up (other requests' answers) runs first, as with a real sleep.
    await drained();
    if (signal?.aborted) throw abortReason(signal);
  };
  return { clock, now, sleep };
}
