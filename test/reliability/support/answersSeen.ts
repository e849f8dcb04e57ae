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
  /** The Retry-After header of every 429 received, in order. */
  retryAfters(): string[];
  /** Puts the original fetch back. */
  stop(): void;
}

export function countAnswers(): AnswersSeen {
  const counts: Counts = {};
  const retryAfters: string[] = [];
  const realFetch = globalThis.fetch;
  const note = (key: string) => {
    counts[key] = (counts[key] ?? 0) + 1;
  };
  globalThis.fetch = async (input, init) => {
    try {
      const response = await realFetch(input, init);
      note(String(response.status));
      if (response.status === 429) retryAfters.push(response.headers.get("Retry-After") ?? "");
      return response;
    } catch (error) {
      note(NO_ANSWER);
      throw error;
    }
  };
  return {
    snapshot: () => ({ ...counts }),
    retryAfters: () => [...retryAfters],
    stop: () => {
      globalThis.fetch = realFetch;
    },
  };
}
