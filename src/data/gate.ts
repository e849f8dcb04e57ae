/** Gives back the slot of a request once its answer (or failure) has arrived. */
export type ReleaseSlot = () => void;

/**
 * The door every request of a data layer goes through, attempt by attempt (requestExecutor.ts). The add-in's
 * is its pacing at the service's limit (`RequestGate`); the team relay's is its team gate, which paces the
 * whole team's requests in turns per person.
 */
export interface Gate {
  /**
   * Waits for a turn; the caller must call the returned release when its request has finished. Fails at once
   * when `signal` has fired, and when it fires while waiting.
   */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot>;
  /**
   * The service answered a request with a 429 that asks to wait `ms`: called before that request's slot is
   * released, so that the next waiter does not go out first.
   */
  pauseFor(ms: number): void;
}
