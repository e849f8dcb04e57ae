import { performance } from "node:perf_hooks";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";

/** Longest stretch of export work between two chances for the API to answer. */
const SLICE_MS = 4;

/**
 * Lets long synchronous work share the event loop: `yieldIfDue` gives way to pending I/O (API
 * requests, downloads) once the current slice has run `SLICE_MS`, and is free otherwise.
 */
export class CooperativeSlice {
  private sliceStart = performance.now();

  async yieldIfDue(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await yieldToEventLoop();
    this.sliceStart = performance.now();
  }
}
