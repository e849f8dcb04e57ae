import type { WorkerResources } from "./workerScope";

/** Resources a caller uses and then lets go of; see `sharedForWorker`. */
export interface SharedResources extends WorkerResources {
  /** Done with what `get` gave: closes it unless the jest worker keeps it for its next test files. */
  release(): Promise<void>;
}

/**
 * Under jest's worker environment (test/support/workerEnvironment.ts), the worker's resources: the first
 * test file that asks opens one, the later files share it, the worker closes it when it ends, and `release`
 * does nothing. Anywhere else (a script, another environment), resources of the caller's own that `release`
 * closes.
 */
export function sharedForWorker(): SharedResources {
  const worker = (globalThis as { workerResources?: WorkerResources }).workerResources;
  if (worker)
    return { get: (key, open, close) => worker.get(key, open, close), release: async () => undefined };
  const closers: (() => Promise<void>)[] = [];
  return {
    async get(_key, open, close) {
      const value = await open();
      closers.push(() => close(value));
      return value;
    },
    async release() {
      for (const close of closers.splice(0).reverse()) await close();
    },
  };
}
