/** The store could not be written or read in time: another program holds its lock, or Redis is away. */
export class StoreBusyError extends Error {
  override readonly name = "StoreBusyError";
}

export interface RetryClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export const REAL_CLOCK: RetryClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 250;

/**
 * Runs `attempt` until it succeeds, waiting between tries without holding the event loop (the pause doubles
 * from 2 ms to 250 ms). Errors `isBusy` does not recognise are thrown at once; after `deadlineMs` of busy
 * answers the last one is thrown as a StoreBusyError with `busyMessage`.
 */
export async function retryWhileBusy<T>(
  attempt: () => T | Promise<T>,
  isBusy: (error: unknown) => boolean,
  options: { deadlineMs: number; busyMessage: string; clock?: RetryClock },
): Promise<T> {
  const clock = options.clock ?? REAL_CLOCK;
  const deadline = clock.now() + options.deadlineMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (clock.now() >= deadline) throw new StoreBusyError(options.busyMessage, { cause: error });
      await clock.sleep(Math.min(pause, Math.max(1, deadline - clock.now())));
    }
  }
}
