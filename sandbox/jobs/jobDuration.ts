import { OBSERVED_JOB_DURATIONS } from "../contract/limits";
import { dayNumber } from "../data/propertyRecord";
import type { BulkJob } from "./jobStore";

/** Properties times days of the range: the size the live durations were recorded against. */
export function propertyDaysOf(job: Pick<BulkJob, "propertyIds" | "startDate" | "endDate">): number {
  return job.propertyIds.length * (dayNumber(job.endDate) - dayNumber(job.startDate) + 1);
}

/**
 * Seconds a live job of this size takes end to end: the power law through the contract's two recorded runs
 * (30 s for one property-month, about 7.5 minutes for ten properties over 13 months). Sublinear, as the live
 * service's fixed start-up cost dominates small jobs.
 */
export function liveJobSeconds(propertyDays: number): number {
  const [small, large] = OBSERVED_JOB_DURATIONS;
  const exponent =
    Math.log(large.seconds / small.seconds) / Math.log(large.property_days / small.property_days);
  return small.seconds * Math.pow(Math.max(1, propertyDays) / small.property_days, exponent);
}

/** How long the sandbox holds a job before it succeeds: the live time times the sandbox's job time scale. */
export function jobDurationMs(
  job: Pick<BulkJob, "propertyIds" | "startDate" | "endDate">,
  scale: number,
): number {
  if (scale <= 0) return 0;
  return Math.round(liveJobSeconds(propertyDaysOf(job)) * 1000 * scale);
}
