import { ApiError } from "../api/errors";
import { watchAbort } from "./abortWatch";

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
    const unwatch = signal
      ? watchAbort(signal, () => {
          clearTimeout(timer);
          reject(abortReason(signal));
        })
      : () => undefined;
    const timer = setTimeout(
      () => {
        unwatch();
        resolve();
      },
      Math.max(0, ms),
    );
  });

/** Settles like `promise`, or rejects as soon as `signal` fires; the promise itself keeps running for others. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const unwatch = watchAbort(signal, () => reject(abortReason(signal)));
    promise.then(
      (value) => {
        unwatch();
        resolve(value);
      },
      (error: unknown) => {
        unwatch();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
