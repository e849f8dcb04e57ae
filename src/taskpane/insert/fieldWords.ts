/**
 * A field's meaning and unit read from its contract name and type, for the fields the catalogue has no words of
 * its own for: "rent_1_bed_psf_avg_t30" reads "Rent 1-bedroom per sq ft average, last 30 days", in "$ per sq
 * ft". The unit follows the kind that formats the field's cells (src/tables/columnKinds.ts), so the list and
 * the cell agree.
 */
import { inferColumnKind, type ColumnKind } from "../../tables/columnKinds";

const WORDS: Readonly<Record<string, string>> = {
  avg: "average",
  ner: "net effective rent",
  psf: "per sq ft",
  yoy: "year over year",
  mtd: "month to date",
  pct: "percent",
  msa: "MSA",
  url: "URL",
  t30: "last 30 days",
  t90: "last 90 days",
  t365: "last 365 days",
};

/** Periods and percentiles read better set off at the end: "average, last 30 days". */
const SET_OFF = new Set(["t30", "t90", "t365", "mtd"]);

function percentile(word: string): string | undefined {
  const rank = /^p(\d{1,2})$/.exec(word)?.[1];
  if (rank === undefined) return undefined;
  if (rank === "50") return "median";
  return `${rank}th percentile`;
}

export function meaningOf(name: string): string {
  const words = name.split("_");
  const parts: string[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    const next = words[index + 1];
    if (/^\d$/.test(word) && next === "bed") {
      parts.push(word === "0" ? "studio" : `${word}-bedroom`);
      index++;
    } else if (/^\d+$/.test(word) && next !== undefined && /^\d+$/.test(next)) {
      parts.push(`aged ${word}-${next}`);
      index++;
    } else if (/^\d+$/.test(word) && next === "up") {
      parts.push(`aged ${word} and over`);
      index++;
    } else if (SET_OFF.has(word)) {
      parts.push(`, ${WORDS[word]}`);
    } else {
      parts.push(WORDS[word] ?? percentile(word) ?? word);
    }
  }
  const text = parts.join(" ").replace(/ ,/g, ",");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** How the Insert list says a percent's unit: the one convention, a fraction under Excel's % format. */
export const PERCENT_UNIT = "% (a fraction: 0.952 shows 95.2 %)";

/** A value of each JSON type, so the column kinds read a field as the contract types it. */
const SAMPLE_BY_TYPE: Readonly<Record<string, unknown>> = { number: 1.5, integer: 1, boolean: true };

const UNIT_BY_KIND: Readonly<Record<ColumnKind, string>> = {
  text: "text",
  identifier: "id",
  integer: "count",
  number: "number",
  currency: "dollars",
  percent: PERCENT_UNIT,
  year: "year",
  miles: "miles",
  coordinate: "degrees",
  date: "date",
  timestamp: "date and time",
  boolean: "yes or no",
};

const TIME_KINDS: ReadonlySet<ColumnKind> = new Set(["date", "timestamp"]);

/** The field's kind: what its name says, else what its contract type is; text stays text (a status, a name). */
function kindOf(name: string, jsonType: string): ColumnKind {
  const fromName = inferColumnKind(name, []);
  if (jsonType === "string") return TIME_KINDS.has(fromName) ? fromName : "text";
  if (fromName !== "text") return fromName;
  const sample = SAMPLE_BY_TYPE[jsonType];
  return sample === undefined ? "text" : inferColumnKind(name, [sample]);
}

export function unitOf(name: string, jsonType: string): string {
  const kind = kindOf(name, jsonType);
  const words = name.split("_");
  if (words.includes("score")) return "score";
  if (kind === "currency" && (words.includes("psf") || (words.includes("sq") && words.includes("ft"))))
    return "$ per sq ft";
  return UNIT_BY_KIND[kind];
}
