import { ApiError } from "../api/errors";
import { AnswerTrail } from "../data/answerTrail";
import { session } from "../session/session";
import { rememberCellAsOf } from "./cellAsOf";
import { toCellError } from "./cellErrors";
import { currentCellRefresh } from "./freshness";

/** Longest a cell may wait for the service before it shows #N/A instead of #BUSY!. */
export const DEFAULT_CELL_TIMEOUT_MS = 60_000;

let cellTimeoutMs = DEFAULT_CELL_TIMEOUT_MS;

export function setCellTimeout(ms: number): void {
  cellTimeoutMs = ms;
}

/** What a cell's time bound reads and waits with. */
export interface CellClock {
  now(): number;
  /** Calls `then` once `ms` have passed; returns what cancels that. */
  after(ms: number, then: () => void): () => void;
}

const REAL_CELL_CLOCK: CellClock = {
  now: () => Date.now(),
  after: (ms, then) => {
    const timer = setTimeout(then, ms);
    return () => clearTimeout(timer);
  },
};

let cellClock = REAL_CELL_CLOCK;

/** For tests: the clock of the cells' time bounds, the one the data layer's pacing runs on (real by default). */
export function setCellClock(clock: CellClock | undefined): void {
  cellClock = clock ?? REAL_CELL_CLOCK;
}

/**
 * Whether the sign-in's requests are moving through the pacing: some wait their turn (or are on the wire, each
 * under its own bound) and one went out within the last bound, or one was answered within it. A block of 10,000 ids needs 50 requests, which the live limit (100 per 5 minutes, one per 6 s
 * after a burst) spreads over minutes: its cell is not stuck, it is in line, so its bound starts again.
 */
function sessionPacingMoves(): boolean {
  const backlog = session.current?.data.pacingBacklog();
  if (!backlog) return false;
  // An answer that arrived within the bound may still be on its way to this cell: one more bound for it.
  return (
    (backlog.pending > 0 && backlog.sinceLastGrantMs < cellTimeoutMs) ||
    backlog.sinceLastAnswerMs < cellTimeoutMs
  );
}

let pacingMoves: () => boolean = sessionPacingMoves;

/** For tests: what tells a cell at its bound that the requests are still moving (the sign-in's pacing by default). */
export function setPacingProgressCheck(check: (() => boolean) | undefined): void {
  pacingMoves = check ?? sessionPacingMoves;
}

/** However long the pacing moves, a cell ends within this (a bug must not leave it #BUSY! for good). */
const LONGEST_CELL_WAIT_MS = 30 * 60_000;

/**
 * Whether Excel calls the function only to preview part of a formula the person is editing (formula value
 * preview: Excel on the web, Windows 2504+, Mac 16.96+). Microsoft asks functions that call a metered or slow
 * service to answer such a call without spending (`invocation.isInValuePreview`, CustomFunctionsRuntime 1.5;
 * documented as true or false, typed a string by @types/custom-functions-runtime, so both spellings count).
 * A host without 1.5 leaves it undefined: not a preview.
 */
export function isValuePreview(invocation: CustomFunctions.Invocation | undefined): boolean {
  const flag: unknown = invocation?.isInValuePreview;
  return flag === true || flag === "true";
}

/** What a previewed cell shows when its answer is not in memory: the service is asked once it is entered. */
export const PREVIEW_NOT_RUN = "preview: runs when entered";

function previewNotRun(): CustomFunctions.Error {
  return new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, PREVIEW_NOT_RUN);
}

/**
 * What a cell's work waits with: `signal` fires when Excel cancels the call or when the time bound passes.
 * The data layer reads `signal` only when memory does not hold the answer, just before it would ask the
 * service; in a formula value preview that read throws (`#N/A` "preview: runs when entered"), so a preview
 * answers from memory or asks nothing.
 */
export interface CellSignal {
  readonly signal: AbortSignal;
  /** Where the cell's answers are noted, when Excel told the call its address (the pane shows them). */
  readonly trail?: AnswerTrail;
}

/**
 * A cell's signal and time bound, made when the work first asks for the signal, which it does only to wait
 * on something: a cell answered from memory (a recalculation) costs no controller, timer or listener.
 */
class CellWait implements CellSignal {
  private controller: AbortController | undefined;

  constructor(
    readonly trail: AnswerTrail | undefined,
    private readonly preview: boolean,
  ) {}

  private cancelTimer: (() => void) | undefined;
  /** Ends the cell with the time bound's error; set once the work has handed back a promise to wait on. */
  expire: ((error: ApiError) => void) | undefined;

  get signal(): AbortSignal {
    if (this.preview) throw previewNotRun();
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      const started = cellClock.now();
      const bound = () => {
        // Still in line behind requests the pacing lets through: not stuck, so wait another bound.
        if (pacingMoves() && cellClock.now() - started < LONGEST_CELL_WAIT_MS) {
          this.cancelTimer = cellClock.after(cellTimeoutMs, bound);
          return;
        }
        const error = new ApiError(
          "timeout",
          `No answer within ${Math.round((cellClock.now() - started) / 1000)} s. Recalculate to retry.`,
        );
        controller.abort(error);
        this.expire?.(error);
      };
      this.cancelTimer = cellClock.after(cellTimeoutMs, bound);
    }
    return this.controller.signal;
  }

  /** Ends a cell that was let go of: Excel gave up on it, so nothing it shows depends on this answer. */
  endLetGo: (() => void) | undefined;
  /** Set when the sign-in the work was using ended: the work's outcome is no longer this cell's. */
  letGo = false;

  /** Excel gave up on the call: whatever the work waits for, or will wait for, ends at once. */
  cancel(): void {
    this.controller ??= new AbortController();
    this.controller.abort(new ApiError("cancelled", "Cancelled by Excel."));
    if (this.letGo) this.endLetGo?.();
  }

  /**
   * The sign-in ended while this cell waited: its waits end (nothing more is asked of the service for it), its
   * time bound stops, and the cell is left calculating rather than given an error, as Excel leaves a call it
   * has not had an answer for. Excel calls the function again when it recalculates the cell (the next
   * sign-in recalculates the cells left so), and cancels this call then.
   */
  letGoOf(): void {
    this.letGo = true;
    this.settle();
    this.controller ??= new AbortController();
    this.controller.abort(new ApiError("cancelled", "Signed out."));
  }

  settle(): void {
    this.cancelTimer?.();
  }
}

const PREVIEW_SIGNAL: CellSignal = {
  get signal(): AbortSignal {
    throw previewNotRun();
  },
};

/**
 * The signal of a streaming call, which `runCell` does not bound: its own controller's, or in a formula value
 * preview one whose read stops the call before it asks the service, as a bound cell's does.
 */
export function streamingCellSignal(
  invocation: CustomFunctions.Invocation,
  controller: AbortController,
): CellSignal {
  return isValuePreview(invocation) ? PREVIEW_SIGNAL : { signal: controller.signal };
}

/** Cells whose work is still under way: what a sign-out lets go of. */
const pendingCells = new Set<CellWait>();

/** Calls still waiting for their answer (the pane's refresh waits while any is). */
export function cellsWaiting(): number {
  return pendingCells.size;
}

/** At sign-out: every cell still waiting stops waiting and keeps showing that it is calculating. */
export function letGoOfPendingCells(): void {
  for (const wait of pendingCells) wait.letGoOf();
  pendingCells.clear();
}

const answered = () => undefined;

/** The text a cell error shows with its code (CustomFunctions.Error carries it as `message`, as Error does). */
const messageOf = (error: { message?: string }) => error.message;

/** Why a call has no answer: its error's message, or the first error cell's of the block it answered. */
function unansweredReason(outcome: unknown): string | undefined {
  if (outcome instanceof CustomFunctions.Error) return messageOf(outcome);
  if (!Array.isArray(outcome)) return undefined;
  for (const row of outcome as unknown[]) {
    if (!Array.isArray(row)) continue;
    const error = row.find((cell): cell is CustomFunctions.Error => cell instanceof CustomFunctions.Error);
    if (error) return messageOf(error);
  }
  return undefined;
}

/**
 * Runs a cell's work; when it fails for want of a sign-in while a kept one is being resumed (Excel on the web
 * calculates as the workbook opens, before the pane has resumed it), runs it again once the resume settles.
 */
function orAfterResume<T>(work: (cell: CellSignal) => T | Promise<T>, wait: CellSignal): T | Promise<T> {
  const again = (error: unknown): Promise<T> => {
    const resuming = session.current ? undefined : session.resuming;
    if (!resuming) throw error;
    return afterResume(resuming, wait, work);
  };
  let first: T | Promise<T>;
  try {
    first = work(wait);
  } catch (error) {
    return again(error);
  }
  return first instanceof Promise ? first.catch(again) : first;
}

/**
 * The work of a cell called while a kept sign-in is being resumed, run once the resume has settled. It waits
 * on the cell's signal (so its time bound and Excel's cancellation hold, and a value preview asks nothing).
 */
async function afterResume<T>(
  resuming: Promise<void>,
  wait: CellSignal,
  work: (cell: CellSignal) => T | Promise<T>,
): Promise<T> {
  const signal = wait.signal;
  await new Promise<void>((resolve, reject) => {
    const stop = () => reject(signal.reason as Error);
    if (signal.aborted) return stop();
    signal.addEventListener("abort", stop, { once: true });
    void resuming.then(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    });
  });
  // The pane's start may have handed over to the resume itself meanwhile: wait for that one too.
  return orAfterResume(work, wait);
}

/**
 * Runs one custom function call: gives the work a signal that fires when Excel cancels the call or when the
 * time bound passes, and turns every failure into a cell error. A cell always ends with a value or an error.
 *
 * Work that has its answer at once (everything in memory, as in a recalculation) returns it rather than a
 * promise: the cell then costs one settled promise, without an async frame or a wait to watch.
 */
export function runCell<T>(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  work: (cell: CellSignal) => T | Promise<T>,
): Promise<T> {
  const address = invocation?.address;
  const preview = isValuePreview(invocation);
  const wait = new CellWait(address === undefined ? undefined : new AnswerTrail(), preview);
  // A call Excel makes during the pane's refresh tells that refresh when it has settled. A value preview is not
  // the cell's calculation: it neither settles the cell for a refresh nor replaces the cell's as-of.
  const refresh = currentCellRefresh();
  const remember = (outcome: unknown) => {
    if (address === undefined || preview) return;
    if (wait.trail) rememberCellAsOf(address, wait.trail, Date.now(), unansweredReason(outcome));
    refresh?.settled(address, cellClock.now());
  };
  if (invocation) invocation.onCanceled = () => wait.cancel();
  let working: T | Promise<T>;
  try {
    working = orAfterResume(work, wait);
  } catch (error) {
    wait.settle();
    const cellError = toCellError(error);
    remember(cellError);
    return Promise.reject(cellError);
  }
  if (!(working instanceof Promise)) {
    wait.settle();
    remember(working);
    // Nothing is left to cancel: let the cell's wait go with this turn rather than live as long as Excel's call.
    if (invocation) invocation.onCanceled = answered;
    return Promise.resolve(working);
  }
  const waiting = working;
  pendingCells.add(wait);
  return new Promise<T>((resolve, reject) => {
    // A cell let go of at sign-out takes neither the work's value nor its error: it ends only when Excel cancels it.
    const end = (outcome: unknown, settle: () => void) => {
      pendingCells.delete(wait);
      wait.settle();
      if (wait.letGo) return;
      remember(outcome);
      settle();
    };
    const fail = (error: unknown) => {
      const cellError = toCellError(error);
      end(cellError, () => reject(cellError));
    };
    wait.expire = fail;
    wait.endLetGo = () => reject(toCellError(new ApiError("cancelled", "Cancelled by Excel.")));
    waiting.then((value) => end(value, () => resolve(value)), fail);
  });
}
