/** The export jobs cells wait for, as the pane shows them beside the requests waiting. */
export interface ExportJobsState {
  /** Jobs being submitted or running. */
  running: number;
  /** Until the last submitted job is expected to end (its size's usual time); 0 when none is submitted yet. */
  timeLeftMs: number;
}

/** One followed job: when it is expected to end, once submitted, and its end. */
export interface FollowedExportJob {
  expectEndAt(epochMs: number): void;
  end(): void;
}

/**
 * The export jobs the data layer follows for cells (RENT.HISTORY's days): how many, and when the last is
 * expected to end, so the pane can say what a recalculation waits for. It sends nothing.
 */
export class ExportJobsUnderWay {
  private readonly expectedEnds = new Map<object, number | undefined>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number) {}

  /** A job from its submission on; `end` it when it has ended, however it ended. */
  follow(): FollowedExportJob {
    const job = {};
    this.expectedEnds.set(job, undefined);
    this.changed();
    return {
      expectEndAt: (epochMs) => {
        if (!this.expectedEnds.has(job)) return;
        this.expectedEnds.set(job, epochMs);
        this.changed();
      },
      end: () => {
        if (this.expectedEnds.delete(job)) this.changed();
      },
    };
  }

  get state(): ExportJobsState {
    const ends = [...this.expectedEnds.values()].filter((end): end is number => end !== undefined);
    return {
      running: this.expectedEnds.size,
      timeLeftMs: Math.max(0, ...ends.map((end) => end - this.now())),
    };
  }

  /** Tells `listener` when a job starts being followed, is submitted or ends; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
