import { ApiError } from "../api/errors";

/**
 * What a refresh made of one answer: fetched since it started ("fresh"), cached and still what the service has
 * ("current": no posting since it was fetched, so no request), the earlier answer kept because a new one could
 * not be had ("held"), or nothing to show but the error ("failed").
 */
export type RefreshOutcome = "fresh" | "current" | "held" | "failed";

export interface RefreshReport {
  /** Distinct answers (requests) per outcome. */
  counts: Record<RefreshOutcome, number>;
  /** Why answers were held or failed, each reason with how many. */
  reasons: { outcome: "held" | "failed"; reason: string; answers: number }[];
}

/**
 * One "Refresh with fresh data", from the moment it starts until the pane ends it (when the last refreshed cell
 * has settled): however long the pacing makes it, a cell it calculates is served a cached answer only when that
 * answer was fetched since it started or nothing could have changed since it was fetched; anything else is asked
 * again. It keeps what happened to each answer, for the stamp.
 */
export class RefreshPass {
  private readonly outcomes = new Map<string, { outcome: RefreshOutcome; reason?: string }>();

  constructor(readonly startedAt: number) {}

  /** What happened to the answer under `key` (its last outcome counts: a later cell may get what an earlier could not). */
  note(key: string, outcome: RefreshOutcome, reason?: string): void {
    this.outcomes.delete(key);
    this.outcomes.set(key, reason === undefined ? { outcome } : { outcome, reason });
  }

  /** A failure of the request under `key`: held when an earlier answer is kept, failed otherwise. */
  noteFailure(key: string, error: unknown, kept: boolean): void {
    this.note(key, kept ? "held" : "failed", error instanceof Error ? error.message : String(error));
  }

  report(): RefreshReport {
    const counts: Record<RefreshOutcome, number> = { fresh: 0, current: 0, held: 0, failed: 0 };
    const reasons = new Map<string, RefreshReport["reasons"][number]>();
    for (const { outcome, reason } of this.outcomes.values()) {
      counts[outcome] += 1;
      if (reason === undefined || (outcome !== "held" && outcome !== "failed")) continue;
      const line = reasons.get(`${outcome}|${reason}`) ?? { outcome, reason, answers: 0 };
      line.answers += 1;
      reasons.set(`${outcome}|${reason}`, line);
    }
    return { counts, reasons: [...reasons.values()] };
  }
}

/**
 * Whether a refresh keeps a cell's earlier answer when asking again fails with `error`: a refusal, a held or
 * rate-limited request, an unreachable service leave the value shown better than an error. "Not found" is the
 * service's answer, and a cancelled caller's cell is gone.
 */
export function keepsEarlierAnswer(error: unknown): boolean {
  return !(error instanceof ApiError && (error.kind === "cancelled" || error.kind === "not_found"));
}
