/**
 * Resolves once everything already queued has run: promise callbacks, and the callbacks of timers and I/O
 * that are due now. A test awaits it to see what code does "without time passing" (with an injected clock,
 * nothing moves until the test moves it), where a real sleep would only guess how long is long enough.
 */
export function drained(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
