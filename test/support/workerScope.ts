/**
 * What a jest worker keeps from one test file to the next. Jest loads every module afresh for each test file,
 * so a module-level cache lasts one file; this module is loaded by the test environment instead (outside the
 * files' module registry, once per worker process), and the environment lends its maps to each file.
 *
 * - `datasets`: the sandbox's synthetic datasets by seed and size (sandbox/data/dataset.ts reads it), built by
 *   the first file that needs one and never mutated.
 * - `contracts`: the parsed OpenAPI contract, the sandbox's (sandbox/contract/openapiDocument.ts) and the
 *   response validator's own parse with its compiled validators (test/sandbox/support/contractValidator.ts).
 * - `resources`: things with a lifetime (a browser, a preview server), opened by the first file that asks and
 *   closed when the worker ends.
 */
export interface WorkerResources {
  /** The resource under `key`, opened by `open` the first time; `close` runs when the worker ends. */
  get<T>(key: string, open: () => Promise<T>, close: (value: T) => Promise<void>): Promise<T>;
}

interface Held {
  value: Promise<unknown>;
  close: () => Promise<void>;
}

const held = new Map<string, Held>();

export const workerDatasets = new Map<string, unknown>();

/** Parsed contracts and what is compiled from them, by the first file that needs each. */
export const workerContracts = new Map<string, unknown>();

export const workerResources: WorkerResources = {
  get<T>(key: string, open: () => Promise<T>, close: (value: T) => Promise<void>): Promise<T> {
    const existing = held.get(key);
    if (existing) return existing.value as Promise<T>;
    const value = open();
    // A failed open is forgotten, so the next file tries again (and reports its own failure).
    value.catch(() => held.delete(key));
    held.set(key, { value, close: async () => close(await value) });
    return value;
  },
};

/** Closes every resource (each once); what fails to close is reported, not thrown. */
export async function closeWorkerResources(): Promise<void> {
  const closing = [...held.values()];
  held.clear();
  const results = await Promise.allSettled(closing.map((resource) => resource.close()));
  for (const result of results)
    if (result.status === "rejected") console.error("A shared test resource failed to close:", result.reason);
}

/**
 * jest-worker's message telling a worker process to end ([CHILD_MESSAGE_END]); the worker then waits for its
 * open handles to close, which the shared resources are until closed here. A run in band (one test file, or
 * `--runInBand`) has no worker: the projects' global teardown closes them (./globalTeardown.ts).
 */
const CHILD_MESSAGE_END = 2;
const inJestWorker = /jest-worker[\\/]build[\\/]processChild\.js$/.test(process.argv[1] ?? "");

if (inJestWorker && process.send) {
  const onMessage = (message: unknown) => {
    if (!Array.isArray(message) || message[0] !== CHILD_MESSAGE_END) return;
    // A listener left on the IPC channel would keep the worker alive.
    process.off("message", onMessage);
    void closeWorkerResources();
  };
  process.on("message", onMessage);
}
