import { factsOf } from "../api/fieldFacts";
import { asFraction, scaleOf, type PercentScale } from "../api/readers/percentScale";

const words = (name: string) => name.toLowerCase().split(/[_\s]+/);

/**
 * How an export column's percents are written: the contract's `x-sent-as` for its columns; a column the contract
 * does not list (the live file's columns are not all known) is a percent of open scale when its name says so.
 */
function percentSentAs(name: string): string | undefined {
  const facts = factsOf(name);
  if (facts) return facts.unit === "percent" ? (facts.sentAs ?? "fraction") : undefined;
  const parts = words(name);
  return parts.includes("pct") || parts.includes("percent") || parts.includes("percentage")
    ? "either"
    : undefined;
}

/** Occupancy-like percents, which tell a file's scale: a fraction never exceeds 1. */
function isLevelColumn(name: string): boolean {
  const parts = words(name);
  return percentSentAs(name) === "either" && (parts.includes("occupancy") || parts.includes("leased"));
}

function numbersOf(rows: readonly unknown[][], index: number): number[] {
  return rows.map((row) => row[index]).filter((value): value is number => typeof value === "number");
}

/**
 * An export file's rows with every percent column as a fraction (0.9715 for 97.15 %), the add-in's one percent
 * convention, whether the file wrote decimals (the live jsonl) or points. A file's open-scale columns take the
 * scale judged on its occupancy-like columns; a file without one is judged column by column.
 */
export function percentsAsFractions(columns: readonly string[], rows: readonly unknown[][]): unknown[][] {
  const percentColumns = columns.flatMap((name, index) => {
    const sentAs = percentSentAs(name);
    return sentAs === undefined || sentAs === "fraction" ? [] : [{ index, sentAs }];
  });
  if (percentColumns.length === 0) return rows as unknown[][];
  const levels = columns.flatMap((name, index) => (isLevelColumn(name) ? numbersOf(rows, index) : []));
  const fileScale: PercentScale | undefined = levels.length > 0 ? scaleOf(levels) : undefined;
  const scales = new Map(
    percentColumns.map(({ index, sentAs }) => {
      const scale: PercentScale =
        sentAs === "points" ? "points" : (fileScale ?? scaleOf(numbersOf(rows, index)));
      return [index, scale] as const;
    }),
  );
  return rows.map((row) => {
    const converted = [...row];
    for (const [index, scale] of scales) {
      const value = converted[index];
      if (typeof value === "number") converted[index] = asFraction(value, scale);
    }
    return converted;
  });
}
