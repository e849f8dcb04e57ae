/**
 * Resolves once everything already queued has run: promise callbacks, and the callbacks of timers and I/O
 * that are due now. A test awaits it to see what code does "without time passing" (with an injected clock,
 * nothing moves until the test moves it), where a real sleep would only guess how long is long enough.
 */
export function drained(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits, turn by turn of the event loop, until `condition` holds: for something another party does (a request
 * reaching a fetch the test holds), instead of sleeping a guessed while. The test's timeout bounds it.
 */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await drained();
}
