/**
 * A cell's signal and time bound are made only when its work first waits with the signal; from then on the
 * cell ends by its time bound or Excel's cancellation even when what it waits for ignores the signal. The
 * bound is the real one (60 s), on jest's clock: time moves only when a test moves it.
 */
import { untilAborted } from "../../src/data/abortableSleep";
import { DEFAULT_CELL_TIMEOUT_MS, letGoOfPendingCells, runCell } from "../../src/functions/cellCall";
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

describe("a sign-out while cells wait", () => {
  afterEach(() => jest.useRealTimers());

  /** Whether a promise has settled, after the microtasks queued so far have run. */
  async function settled(promise: Promise<unknown>): Promise<boolean> {
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    for (let turn = 0; turn < 20; turn++) await Promise.resolve();
    return done;
  }

  it("leaves the cells calculating, not in error, ends their waits, and stops their time bound", async () => {
    jest.useFakeTimers();
    const invocation = fakeInvocation();
    let reason: unknown;
    const cell = runCell(invocation, async (wait) => {
      await untilAborted(never, wait.signal).catch((error: unknown) => {
        reason = error;
        throw error;
      });
      return "answered";
    });
    const answeredAtOnce = runCell(undefined, () => "from memory");

    letGoOfPendingCells();

    // What the cell waited for ended (nothing more is asked for it), yet the cell takes neither that error...
    expect(await settled(cell)).toBe(false);
    expect(reason).toMatchObject({ kind: "cancelled", message: "Signed out." });
    // ...nor its time bound's: it shows that it is calculating until Excel calls the function again.
    jest.advanceTimersByTime(DEFAULT_CELL_TIMEOUT_MS * 2);
    expect(await settled(cell)).toBe(false);
    await expect(answeredAtOnce).resolves.toBe("from memory");

    // Excel recalculates the cell (the next sign-in does): it cancels this call, which then ends.
    invocation.cancel();
    await expect(cell).rejects.toMatchObject({ code: "#N/A", message: "Cancelled by Excel." });
  });

  it("does not give a cell an answer that arrives after the sign-out", async () => {
    let answer: (value: string) => void = () => undefined;
    const cell = runCell(fakeInvocation(), async (wait) => {
      void wait.signal;
      return new Promise<string>((resolve) => (answer = resolve));
    });
    letGoOfPendingCells();
    answer("fetched with the ended sign-in");
    expect(await settled(cell)).toBe(false);
  });

  it("lets go only of the cells waiting at the time: a cell that starts afterwards ends as usual", async () => {
    letGoOfPendingCells();
    const cell = runCell(undefined, async (wait) => {
      void wait.signal;
      return "later";
    });
    await expect(cell).resolves.toBe("later");
  });
});
