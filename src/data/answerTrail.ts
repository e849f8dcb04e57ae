import type { CacheKind } from "./cachePolicy";
import type { AnswerSource } from "./fetched";

/**
 * The date an answer's data describes, as the service dates it: a collection day on records and comp set
 * reads, the analysis day on narratives. A list (floor plans, a survey's items) is as of its latest day.
 */
const DATA_DATE_FIELDS = ["collected_at", "analysis_date"] as const;

/** Members an answer nests its records under (envelopes, a record's attributes). */
const NESTING_FIELDS = ["data", "attributes"] as const;

export function dataDateOf(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    let latest: string | undefined;
    for (const item of value) {
      const day = dataDateOf(item);
      if (day !== undefined && (latest === undefined || day > latest)) latest = day;
    }
    return latest;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (const field of DATA_DATE_FIELDS) {
    const day = record[field];
    if (typeof day === "string" && day !== "") return day;
  }
  for (const field of NESTING_FIELDS) {
    if (field in record) return dataDateOf(record[field]);
  }
  return undefined;
}

/** One answer a call was given. */
export interface AnswerNote {
  kind: CacheKind;
  source: AnswerSource;
  /** Epoch ms when the answer arrived from the service. */
  storedAt: number;
  /** Epoch ms until which the cache serves it without asking again (Infinity: kept for good). */
  freshUntil: number;
  /** The day its data describes, when the answer carries one. */
  dataDate?: string;
  /** The last day, when the answer describes several (a month of a property's history): `dataDate` is the first. */
  lastDataDate?: string;
  /** Why a new answer could not be had, for a stale or kept one. */
  reason?: string;
}

/** The answers of one kind from one source (and reason), summed: a block of 10,000 ids is one line, not 10,000. */
export interface TrailLine {
  kind: CacheKind;
  source: AnswerSource;
  answers: number;
  firstStoredAt: number;
  lastStoredAt: number;
  /** The earliest of their freshness ends: when the first of them would be asked for again. */
  freshUntil: number;
  firstDataDate?: string;
  lastDataDate?: string;
  reason?: string;
}

/**
 * What a formula's call was answered with: each request's kind, whether the cache or the service answered,
 * when that answer was fetched, the date of its data and until when it is fresh. Kept per line, not per answer,
 * so a big block costs a few lines of memory.
 */
export class AnswerTrail {
  private readonly byLine = new Map<string, TrailLine>();
  /** Requests already noted: a call that looks in memory first and then waits for the rest notes each once. */
  private readonly noted = new Set<string>();

  /** `requestKey` names the request (its cache key). */
  note(requestKey: string, answer: AnswerNote): void {
    if (this.noted.has(requestKey)) return;
    this.noted.add(requestKey);
    const lineKey = `${answer.kind}|${answer.source}|${answer.reason ?? ""}`;
    const line = this.byLine.get(lineKey);
    if (!line) {
      this.byLine.set(lineKey, {
        kind: answer.kind,
        source: answer.source,
        answers: 1,
        firstStoredAt: answer.storedAt,
        lastStoredAt: answer.storedAt,
        freshUntil: answer.freshUntil,
        firstDataDate: answer.dataDate,
        lastDataDate: answer.lastDataDate ?? answer.dataDate,
        ...(answer.reason === undefined ? {} : { reason: answer.reason }),
      });
      return;
    }
    line.answers += 1;
    line.firstStoredAt = Math.min(line.firstStoredAt, answer.storedAt);
    line.lastStoredAt = Math.max(line.lastStoredAt, answer.storedAt);
    line.freshUntil = Math.min(line.freshUntil, answer.freshUntil);
    if (answer.dataDate !== undefined) {
      const last = answer.lastDataDate ?? answer.dataDate;
      if (line.firstDataDate === undefined || answer.dataDate < line.firstDataDate)
        line.firstDataDate = answer.dataDate;
      if (line.lastDataDate === undefined || last > line.lastDataDate) line.lastDataDate = last;
    }
  }

  lines(): TrailLine[] {
    return [...this.byLine.values()].map((line) => ({ ...line }));
  }
}
