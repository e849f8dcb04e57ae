import type { CatalogueRecord } from "../fieldCatalogue";
import { factsIn } from "../fieldFacts";

/**
 * The add-in's one percent convention: a percent leaves the readers as a fraction (0.9187 for 91.87 %), shown
 * through Excel's `%` format, so `=B6*C6` is right whichever column holds the percent. The service writes each
 * percent field as the contract's `x-sent-as` says: a fraction, points (91.87), or either, which is judged per
 * field here, since one record may mix scales (api-notes, third pass).
 */
export type PercentScale = "fraction" | "points";

/**
 * The scale of one field's values: a fraction never exceeds 1, while points of such a figure do in any real
 * answer. A 100 % level written as a fraction (1) does not exceed 1, so it does not flip the guess.
 */
export function scaleOf(levels: Iterable<number | null>): PercentScale {
  for (const level of levels) if (level !== null && Math.abs(level) > 1) return "points";
  return "fraction";
}

/** A percent of the given scale as a fraction; rounded so 91.87 becomes 0.9187, not 0.9187000000000001. */
export function asFraction(value: number | null, scale: PercentScale): number | null {
  if (value === null || scale === "fraction") return value;
  return Math.round((value / 100) * 1e10) / 1e10;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Calls `visit` with every percent value of a record (nested groups and keyed groups included). */
function eachPercent(
  record: Record<string, unknown>,
  kind: CatalogueRecord,
  visit: (holder: Record<string, unknown>, key: string, field: string, sentAs: string | undefined) => void,
  prefix = "",
): void {
  for (const [key, value] of Object.entries(record)) {
    const field = prefix === "" ? key : `${prefix}_${key}`;
    const facts = factsIn(kind, field);
    if (facts?.unit === "percent" && facts.keyed && isPlainObject(value)) {
      for (const inner of Object.keys(value)) visit(value, inner, field, facts.sentAs);
    } else if (facts?.unit === "percent") visit(record, key, field, facts.sentAs);
    else if (!facts && isPlainObject(value)) eachPercent(value, kind, visit, field);
  }
}

/**
 * Every percent of an answer's records as a fraction, in place. Fields the contract says come as fractions stay;
 * points are divided by 100; a field whose scale the evidence leaves open (`either`) takes the scale judged on its
 * own values across the answer's records, never on other fields: the vendor's floor plan example writes a change
 * percent in points beside a unit mix as a fraction in one record.
 */
export function percentsAsFractions(
  records: readonly Record<string, unknown>[],
  kind: CatalogueRecord,
): void {
  const openValues = new Map<string, number[]>();
  for (const record of records) {
    eachPercent(record, kind, (holder, key, field, sentAs) => {
      const value = holder[key];
      if (sentAs !== "either" || typeof value !== "number") return;
      const values = openValues.get(field);
      if (values) values.push(value);
      else openValues.set(field, [value]);
    });
  }
  const judged = new Map([...openValues].map(([field, values]) => [field, scaleOf(values)]));
  for (const record of records) {
    eachPercent(record, kind, (holder, key, field, sentAs) => {
      const value = holder[key];
      if (typeof value !== "number") return;
      const scale = sentAs === "points" ? "points" : sentAs === "either" ? judged.get(field) : "fraction";
      holder[key] = asFraction(value, scale ?? "fraction");
    });
  }
}
