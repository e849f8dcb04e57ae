import type { DataLayer } from "../data/dataLayer";
import { HistoryExports, type HistoryExportsOptions } from "../data/history/historyExports";
import type { SignedIn } from "../session/session";

/** One HistoryExports per sign-in, beside its data layer: its jobs and cache are that sign-in's. */
const bySignIn = new WeakMap<DataLayer, HistoryExports>();
let options: HistoryExportsOptions = {};

/**
 * Clock, sleep, polling and bounds of the next sign-ins' history exports. The shared runtime keeps the defaults
 * (polls every 20 s growing to 60 s, a bound of 15 minutes or three times the expected time); tests and
 * benchmarks move a clock instead of waiting.
 */
export function useHistoryOptions(next: HistoryExportsOptions): void {
  options = next;
}

export function historyExportsOf(signedIn: Pick<SignedIn, "data" | "owner">): HistoryExports {
  let exports = bySignIn.get(signedIn.data);
  if (!exports) {
    // Keys name the cache's owner (a hash for personal keys and tokens), so a sign-out removes them.
    exports = new HistoryExports(signedIn.data, signedIn.owner, options);
    bySignIn.set(signedIn.data, exports);
  }
  return exports;
}
