/**
 * Percent-like fields leave the readers in points (97.15 means 97.15 %), whatever the service sent: the live
 * service was read as sending fractions (0.9715), the contract's other `*_percent` fields are points, and one
 * scale in every cell and sheet is what a model can rely on.
 */
export type PercentScale = "fraction" | "points";

/**
 * The scale of one answer, judged on its level percents (occupancy, leased, unit mix): a fraction never
 * exceeds 1, while points of such a figure do in any real answer.
 */
export function scaleOf(levels: Iterable<number | null>): PercentScale {
  for (const level of levels) if (level !== null && Math.abs(level) > 1) return "points";
  return "fraction";
}

/** A percent of the given scale in points; rounded so 0.9715 becomes 97.15, not 97.15000000000001. */
export function inPoints(value: number | null, scale: PercentScale): number | null {
  if (value === null || scale === "points") return value;
  return Math.round(value * 100 * 1e8) / 1e8;
}
