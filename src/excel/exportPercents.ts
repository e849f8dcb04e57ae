import { inPoints, scaleOf, type PercentScale } from "../api/readers/percentScale";

const words = (name: string) => name.toLowerCase().split(/[_\s]+/);

/**
 * Percent columns of an export file: `*_pct` (the live layout) and `*_percent` / `*_percentage` (the contract's).
 * `concession_percent*` is left out: the contract writes it as a fraction and the sheet formats it as one.
 */
function isPercentColumn(name: string): boolean {
  const parts = words(name);
  if (parts.includes("concession") && parts.includes("percent")) return false;
  return parts.includes("pct") || parts.includes("percent") || parts.includes("percentage");
}

/** Occupancy-like percents, which tell a file's scale: a fraction never exceeds 1. */
function isLevelColumn(name: string): boolean {
  const parts = words(name);
  return isPercentColumn(name) && (parts.includes("occupancy") || parts.includes("leased"));
}

function numbersOf(rows: readonly unknown[][], index: number): number[] {
  return rows.map((row) => row[index]).filter((value): value is number => typeof value === "number");
}

/**
 * An export file's rows with every percent column in points (97.15 means 97.15 %), the scale of the add-in's
 * cells, whether the file wrote decimals (0.9715, the live jsonl) or points. The file's scale is judged on its
 * occupancy-like columns; a file without one is judged column by column.
 */
export function percentsInPoints(columns: readonly string[], rows: readonly unknown[][]): unknown[][] {
  const percentColumns = columns.flatMap((name, index) => (isPercentColumn(name) ? [index] : []));
  if (percentColumns.length === 0) return rows as unknown[][];
  const levels = columns.flatMap((name, index) => (isLevelColumn(name) ? numbersOf(rows, index) : []));
  const fileScale: PercentScale | undefined = levels.length > 0 ? scaleOf(levels) : undefined;
  const scales = new Map(
    percentColumns.map((index) => [index, fileScale ?? scaleOf(numbersOf(rows, index))] as const),
  );
  return rows.map((row) => {
    const converted = [...row];
    for (const [index, scale] of scales) {
      const value = converted[index];
      if (typeof value === "number") converted[index] = inPoints(value, scale);
    }
    return converted;
  });
}
