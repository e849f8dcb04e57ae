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

function numbersOf(rows: readonly unknown[][], index: number): number[] {
  return rows.map((row) => row[index]).filter((value): value is number => typeof value === "number");
}

/**
 * An export file's rows with every percent column as a fraction (0.9715 for 97.15 %), the add-in's one percent
 * convention, whether the file wrote decimals (the live jsonl) or points. Each open-scale column is judged on its own
 * values, never on the file's other columns: the vendor writes scales per field (api-notes, third pass).
 */
export function percentsAsFractions(columns: readonly string[], rows: readonly unknown[][]): unknown[][] {
  const scales = new Map(
    columns.flatMap((name, index) => {
      const sentAs = percentSentAs(name);
      if (sentAs === undefined || sentAs === "fraction") return [];
      const scale: PercentScale = sentAs === "points" ? "points" : scaleOf(numbersOf(rows, index));
      return [[index, scale] as const];
    }),
  );
  if (scales.size === 0) return rows as unknown[][];
  return rows.map((row) => {
    const converted = [...row];
    for (const [index, scale] of scales) {
      const value = converted[index];
      if (typeof value === "number") converted[index] = asFraction(value, scale);
    }
    return converted;
  });
}
