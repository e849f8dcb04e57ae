/**
 * A cell's signal and time bound are made only when its work first waits with the signal; from then on the
 * cell ends by its time bound or Excel's cancellation even when what it waits for ignores the signal. The
 * bound is the real one (60 s), on jest's clock: time moves only when a test moves it.
 */
import { untilAborted } from "../../src/data/abortableSleep";
import { DEFAULT_CELL_TIMEOUT_MS, runCell } from "../../src/functions/cellCall";
import { ArgumentError } from "../../src/functions/cellErrors";
import { fakeInvocation } from "../support/invocation";

const never = new Promise<never>(() => undefined);

/** How a promise has settled so far, read without waiting for it. */
function watch<T>(promise: Promise<T>) {
  const seen: { state: "pending" | "resolved" | "rejected"; value?: T; error?: unknown } = {
    state: "pending",
  };
  promise.then(
    (value) => Object.assign(seen, { state: "resolved", value }),
    (error: unknown) => Object.assign(seen, { state: "rejected", error }),
  );
  return seen;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it("ends a cell by its time bound, 60 s, even when what it waits for ignores the signal", async () => {
  const cell = watch(
    runCell(undefined, async (wait) => {
      void wait.signal; // waits "with" its signal, on something that never looks at it
      return never;
    }),
  );
  await jest.advanceTimersByTimeAsync(DEFAULT_CELL_TIMEOUT_MS - 1);
  expect(cell.state).toBe("pending");
  await jest.advanceTimersByTimeAsync(1);
  expect(cell).toMatchObject({
    state: "rejected",
    error: { code: "#N/A", message: "No answer within 60 s. Recalculate to retry." },
  });
});

it("aborts the signal it gave out when the time bound passes", async () => {
  let reason: unknown;
  const cell = watch(
    runCell(undefined, async (wait) => {
      await untilAborted(never, wait.signal).catch((error: unknown) => (reason = error));
      return "ended";
    }),
  );
  await jest.advanceTimersByTimeAsync(DEFAULT_CELL_TIMEOUT_MS);
  expect(cell).toMatchObject({ state: "rejected", error: { code: "#N/A" } });
  expect(reason).toMatchObject({ kind: "timeout" });
});

it("ends a cell that Excel cancelled before it started to wait, as soon as it waits", async () => {
  const invocation = fakeInvocation();
  const pending = runCell(invocation, async (cell) => {
    invocation.cancel();
    return untilAborted(never, cell.signal);
  });
  await expect(pending).rejects.toMatchObject({ code: "#N/A", message: "Cancelled by Excel." });
});

it("turns a failure thrown before the first wait into a cell error", async () => {
  const pending = runCell(undefined, () => {
    throw new Error("boom");
  });
  await expect(pending).rejects.toMatchObject({ code: "#N/A", message: expect.stringMatching(/Unexpected/) });
});

it("gives a value the work has at once to the cell, and lets go of its time bound and cancellation", async () => {
  const invocation = fakeInvocation();
  let signal: AbortSignal | undefined;
  const pending = runCell(invocation, (cell) => {
    signal = cell.signal; // starts the time bound, then answers without waiting
    return "at once";
  });
  await expect(pending).resolves.toBe("at once");
  expect(jest.getTimerCount()).toBe(0); // the bound's timer is gone with the answer
  await jest.advanceTimersByTimeAsync(DEFAULT_CELL_TIMEOUT_MS);
  invocation.cancel();
  expect(signal?.aborted).toBe(false);
});

it("turns a failure thrown by work that answers at once into a cell error", async () => {
  const pending = runCell(undefined, () => {
    throw new ArgumentError("field must be text.");
  });
  await expect(pending).rejects.toMatchObject({ code: "#VALUE!", message: "field must be text." });
});
