import type { DataLayer } from "../data/dataLayer";
import { CompSetHistory } from "../data/history/compSetHistory";
import { HistoryExports, type HistoryExportsOptions } from "../data/history/historyExports";
import type { SignedIn } from "../session/session";

/** One HistoryExports per sign-in, beside its data layer: its jobs and cache are that sign-in's. */
const bySignIn = new WeakMap<DataLayer, HistoryExports>();
const compSetsBySignIn = new WeakMap<DataLayer, CompSetHistory>();
let options: HistoryExportsOptions = {};

/**
 * Clock, sleep, polling and bounds of the next sign-ins' history exports (the clock also tells comp set histories
 * which days have finished). The shared runtime keeps the defaults
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

/** One comp set floor plan history per sign-in, with the clock of the history options. */
export function compSetHistoryOf(signedIn: Pick<SignedIn, "data" | "owner">): CompSetHistory {
  let history = compSetsBySignIn.get(signedIn.data);
  if (!history) {
    history = new CompSetHistory(signedIn.data, signedIn.owner, options.now);
    compSetsBySignIn.set(signedIn.data, history);
  }
  return history;
}
