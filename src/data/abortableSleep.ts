import { ApiError } from "../api/errors";

/** Waits `ms`; a signal that fires first ends the wait with the signal's reason (an ApiError when we made it). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The reason to throw for an aborted signal: our own ApiError when we set one, else "cancelled". */
export function abortReason(signal: AbortSignal): ApiError {
  const reason: unknown = signal.reason;
  return reason instanceof ApiError ? reason : new ApiError("cancelled", "The request was cancelled.");
}

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** Settles like `promise`, or rejects as soon as `signal` fires; the promise itself keeps running for others. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
