import { OBSERVED_JOB_DURATIONS } from "../../api/contractLimits";

/**
 * How long a live export job of this size takes end to end: the power law through the contract's two
 * recorded runs (30 s for one property-month, about 7.5 minutes for ten properties over 13 months).
 */
export function expectedJobMs(propertyCount: number, days: number): number {
  const [small, large] = OBSERVED_JOB_DURATIONS;
  const exponent =
    Math.log(large.seconds / small.seconds) / Math.log(large.property_days / small.property_days);
  const propertyDays = Math.max(1, propertyCount * days);
  return Math.round(small.seconds * 1000 * Math.pow(propertyDays / small.property_days, exponent));
}

/** "about 4 min", "about 40 s": the rest of an expected wait, in words a cell can show. */
export function waitInWords(remainingMs: number): string {
  if (remainingMs <= 0) return "any moment now";
  const seconds = Math.ceil(remainingMs / 1000);
  if (seconds < 60) return `about ${Math.max(10, Math.ceil(seconds / 10) * 10)} s`;
  return `about ${Math.round(seconds / 60)} min`;
}
