import { OPERATIONS } from "../api/operations";
import type { TrailLine } from "../data/answerTrail";
import type { RefreshReport } from "../data/refreshPass";
import type { SelectedFormula } from "../excel/selectedFormula";
import type { CellAsOf } from "../functions/cellAsOf";
import type { LastRefresh } from "../excel/workbookMemory";
import { dateTime, minuteTime } from "../formats/localTime";

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * What a refresh made of the answers its formulas needed: fetched anew, already current (nothing posted since
 * they were fetched, so not asked again), held (the earlier answer kept, and why) and failed (and why).
 */
export function refreshReportText(report: RefreshReport): string {
  const why = (outcome: "held" | "failed") => {
    const reasons = report.reasons.filter((line) => line.outcome === outcome);
    if (reasons.length === 0) return "";
    return ` (${reasons.map((line) => `${line.answers}: ${line.reason.replace(/\.$/, "")}`).join("; ")})`;
  };
  return countsText(report.counts, why);
}

function countsText(
  counts: RefreshReport["counts"],
  why: (outcome: "held" | "failed") => string = () => "",
): string {
  return `${plural(counts.fresh, "answer", "answers")} fresh, ${counts.current} already current, ${counts.held} held${why("held")}, ${counts.failed} failed${why("failed")}.`;
}

export function refreshedText(
  formulas: number,
  atMs: number,
  stillCalculating: number,
  nowMs: number,
  report?: RefreshReport,
): string {
  const done = `Refreshed ${plural(formulas, "formula", "formulas")} at ${minuteTime(atMs, nowMs)}${report ? `: ${refreshReportText(report)}` : "."}`;
  return stillCalculating === 0
    ? done
    : `${done} ${plural(stillCalculating, "formula was", "formulas were")} still calculating then.`;
}

export function lastRefreshText(last: LastRefresh | undefined, nowMs: number): string {
  if (!last) return "This workbook has not been refreshed with the add-in yet.";
  const when = `Last refresh of this workbook: ${plural(last.formulas, "formula", "formulas")} at ${minuteTime(last.at, nowMs)}`;
  return last.counts ? `${when}: ${countsText(last.counts)}` : `${when}.`;
}

/** The operation a cache kind answers, as the contract names its path ("POST /properties/bulk_details"). */
function requestName(kind: TrailLine["kind"]): string {
  const operation = OPERATIONS.find((candidate) => candidate.cacheKind === kind);
  return operation ? `${operation.method.toUpperCase()} ${operation.path}` : kind;
}

const SOURCE_WORDS: Record<TrailLine["source"], string> = {
  cache: "from the cache",
  network: "from the service",
  stale: "the last known answer (the service could not be reached)",
  kept: "the answer fetched before, kept: the refresh could not get a new one",
};

/** Why a stale or kept answer is shown instead of a new one, in the service's or the add-in's words. */
function reasonText(line: TrailLine): string {
  return line.reason === undefined ? "" : ` (${line.reason.replace(/\.$/, "")})`;
}

function fetchedWhen(line: TrailLine, nowMs: number): string {
  const first = minuteTime(line.firstStoredAt, nowMs);
  const last = minuteTime(line.lastStoredAt, nowMs);
  return first === last ? `fetched ${first}` : `fetched ${first} to ${last}`;
}

function dataDate(line: TrailLine): string {
  if (line.firstDataDate === undefined) return "its data carries no date";
  return line.firstDataDate === line.lastDataDate
    ? `data of ${line.firstDataDate}`
    : `data of ${line.firstDataDate} to ${line.lastDataDate}`;
}

function freshness(line: TrailLine, nowMs: number): string {
  if (line.freshUntil === Number.POSITIVE_INFINITY) return "kept for good";
  const until = minuteTime(line.freshUntil, nowMs);
  return line.freshUntil > nowMs ? `fresh until ${until}` : `no longer fresh since ${until}`;
}

/** One line per kind of request and source: what it was, where it came from, when, of which day, how long fresh. */
export function trailLineText(line: TrailLine, nowMs: number): string {
  return `${requestName(line.kind)}: ${plural(line.answers, "answer", "answers")} ${SOURCE_WORDS[line.source]}${reasonText(line)}, ${fetchedWhen(line, nowMs)}; ${dataDate(line)}; ${freshness(line, nowMs)}.`;
}

/** What the pane says of the selected cell: its formula, and the requests its last calculation rested on. */
export function cellAsOfLines(
  selected: SelectedFormula,
  asOf: CellAsOf | undefined,
  nowMs: number,
): string[] {
  const where = `${selected.sheetName}!${selected.address}`;
  if (selected.formula === undefined) return [`${where} holds no RENT formula.`];
  const head = `${where} ${selected.formula}`;
  if (!asOf)
    return [head, "Not calculated since the add-in started: Refresh it to see where its value comes from."];
  const lines = [head, `Calculated at ${minuteTime(asOf.calculatedAt, nowMs)}.`];
  if (asOf.lines.length === 0) lines.push("It needed no request to the service.");
  for (const line of asOf.lines) lines.push(trailLineText(line, nowMs));
  return lines;
}

/**
 * The as-of a freeze writes beside a formula's values: when they were frozen, and what its last calculation
 * rested on (the data's date, when and where it was fetched).
 */
export function frozenAsOfText(asOf: CellAsOf | undefined, frozenAtMs: number): string {
  const frozen = `Frozen by Rent Market on ${dateTime(frozenAtMs)}.`;
  if (!asOf)
    return `${frozen} Not calculated since the add-in started: when its data was fetched is not known.`;
  if (asOf.lines.length === 0)
    return `${frozen} Calculated ${dateTime(asOf.calculatedAt)} without a request.`;
  const parts = asOf.lines.map((line) => {
    const fetched =
      line.firstStoredAt === line.lastStoredAt
        ? dateTime(line.firstStoredAt)
        : `${dateTime(line.firstStoredAt)} to ${dateTime(line.lastStoredAt)}`;
    return `${requestName(line.kind)}: ${dataDate(line)}, fetched ${fetched} (${SOURCE_WORDS[line.source]}${reasonText(line)})`;
  });
  return `${frozen} As of: ${parts.join("; ")}.`;
}
