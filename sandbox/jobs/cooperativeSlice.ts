import { performance } from "node:perf_hooks";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";

/**
 * Longest stretch of export work between two chances for the API to answer, shared by the jobs
 * running at once (each job's immediate runs in the same turn of the event loop).
 */
const TURN_MS = 4;

/**
 * Lets long synchronous work share the event loop: `yieldIfDue` gives way to pending I/O (API
 * requests, downloads) once the current slice has run its share of `TURN_MS`, and is free otherwise.
 */
export class CooperativeSlice {
  private sliceStart = performance.now();

  /** `sharers()`: how many slices run in each turn now (the jobs generating). */
  constructor(private readonly sharers: () => number = () => 1) {}

  async yieldIfDue(): Promise<void> {
    if (performance.now() - this.sliceStart < TURN_MS / Math.max(1, this.sharers())) return;
    await yieldToEventLoop();
    this.sliceStart = performance.now();
  }
}
