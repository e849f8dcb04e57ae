/**
 * The answers the add-in received, counted where it receives them: a wrapper around the global fetch that
 * tallies each response's status, and "network" for a request that got no answer (a dropped connection).
 *
 * Counted at the client: what matters is what the add-in received and retried, whatever the server counted.
 */
import type { Counts } from "../../bench/sandboxTraffic";

export const NO_ANSWER = "network";

export interface AnswersSeen {
  snapshot(): Counts;
  /** Puts the original fetch back. */
  stop(): void;
}

export function countAnswers(): AnswersSeen {
  const counts: Counts = {};
  const realFetch = globalThis.fetch;
  const note = (key: string) => {
    counts[key] = (counts[key] ?? 0) + 1;
  };
  globalThis.fetch = async (input, init) => {
    try {
      const response = await realFetch(input, init);
      note(String(response.status));
      return response;
    } catch (error) {
      note(NO_ANSWER);
      throw error;
    }
  };
  return {
    snapshot: () => ({ ...counts }),
    stop: () => {
      globalThis.fetch = realFetch;
    },
  };
}
