/**
 * A cell's signal and time bound are made only when its work first waits with the signal; from then on the
 * cell ends by its time bound or Excel's cancellation even when what it waits for ignores the signal.
 */
import { untilAborted } from "../../src/data/abortableSleep";
import { DEFAULT_CELL_TIMEOUT_MS, runCell, setCellTimeout } from "../../src/functions/cellCall";
import { ArgumentError } from "../../src/functions/cellErrors";
import { fakeInvocation } from "../support/invocation";

const never = new Promise<never>(() => undefined);

afterEach(() => setCellTimeout(DEFAULT_CELL_TIMEOUT_MS));

it("ends a cell by its time bound even when what it waits for ignores the signal", async () => {
  setCellTimeout(50);
  const pending = runCell(undefined, async (cell) => {
    void cell.signal; // waits "with" its signal, on something that never looks at it
    return never;
  });
  await expect(pending).rejects.toMatchObject({
    code: "#N/A",
    message: expect.stringContaining("No answer within"),
  });
});

it("aborts the signal it gave out when the time bound passes", async () => {
  setCellTimeout(50);
  let reason: unknown;
  const pending = runCell(undefined, async (cell) => {
    await untilAborted(never, cell.signal).catch((error: unknown) => (reason = error));
    return "ended";
  });
  await expect(pending).rejects.toMatchObject({ code: "#N/A" });
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
  setCellTimeout(50);
  const invocation = fakeInvocation();
  let signal: AbortSignal | undefined;
  const pending = runCell(invocation, (cell) => {
    signal = cell.signal; // starts the time bound, then answers without waiting
    return "at once";
  });
  await expect(pending).resolves.toBe("at once");
  await new Promise((resolve) => setTimeout(resolve, 100));
  invocation.cancel();
  expect(signal?.aborted).toBe(false);
});

it("turns a failure thrown by work that answers at once into a cell error", async () => {
  const pending = runCell(undefined, () => {
    throw new ArgumentError("field must be text.");
  });
  await expect(pending).rejects.toMatchObject({ code: "#VALUE!", message: "field must be text." });
});
