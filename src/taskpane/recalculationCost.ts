import { MAX_JOB_PROPERTY_IDS, MAX_JOB_RANGE_DAYS } from "../api/contractLimits";
import { bodyRange } from "../api/requestFacts";
import { operationById } from "../api/operations";
import { MARKET_METRICS, PROPERTY_DETAILS, type BatchedEndpoint } from "../data/batchedEndpoints";
import { TokenBucket, type PacingOptions } from "../data/tokenBucket";
import { rentFunctionsIn } from "../excel/rentFormulas";
import { limitInWords } from "./progressText";

/** A formula about to be entered again, and the cells its last answer covered (one row per id of a block). */
export interface FormulaToRecalculate {
  readonly formula: string;
  readonly rowCount: number;
  readonly columnCount: number;
}

/** What entering formulas again may cost, when nothing they ask for is in the cache (as after a sign-out). */
export interface RecalculationCost {
  readonly formulas: number;
  /** Requests to the service, at most (an export job's looks while it runs come on top). */
  readonly requests: number;
  /** Properties of the account's bulk export quota the answers may count, at most. */
  readonly quotaProperties: number;
  /** Bulk export jobs submitted, at least (RENT.HISTORY: one per formula, more for many ids or days). */
  readonly exportJobs: number;
}

/** The largest page a property search answers: the fewest requests RENT.PROPERTIES needs for its rows. */
const SEARCH_PAGE_SIZE = bodyRange("searchProperties", "per_page").maximum;
const SEARCH_SPENDS_QUOTA = operationById("searchProperties").spendsPropertyQuota === true;
/** An export job costs its submission and its file; the looks while it runs depend on how long it takes. */
const REQUESTS_PER_EXPORT_JOB = 2;

/** What counts of a batched row: the operation (its quota effect) and the contract's most items per call. */
type BatchedCalls = Pick<BatchedEndpoint<unknown, unknown, unknown>, "operation" | "maxPerCall">;

/** The RENT functions whose cells share calls: each row of a block is one item of the batched row. */
const BATCHED_BY_ROW: Record<string, BatchedCalls> = {
  PROPERTY: PROPERTY_DETAILS,
  MARKET: MARKET_METRICS,
};

/**
 * What entering `formulas` again may cost, read from the data layer's rows: the rows of a RENT.PROPERTY or
 * RENT.MARKET block are items its batched call carries (the contract's most per call, the quota they count),
 * a RENT.PROPERTIES list is pages of property search (each property counted toward the quota), a RENT.HISTORY
 * formula submits an export job, and any other call is one request (identical formulas share it). Upper
 * bounds: answers still in the cache cost nothing, and ids repeated across blocks are asked once.
 */
export function recalculationCost(formulas: readonly FormulaToRecalculate[]): RecalculationCost {
  const items = new Map<BatchedCalls, number>();
  const distinct = new Set<string>();
  let requests = 0;
  let quotaProperties = 0;
  let exportJobs = 0;
  for (const { formula, rowCount } of formulas) {
    for (const name of rentFunctionsIn(formula)) {
      const batched = BATCHED_BY_ROW[name];
      if (batched) {
        items.set(batched, (items.get(batched) ?? 0) + rowCount);
        if (batched.operation.spendsPropertyQuota) quotaProperties += rowCount;
      } else if (name === "PROPERTIES") {
        requests += Math.ceil(rowCount / SEARCH_PAGE_SIZE);
        if (SEARCH_SPENDS_QUOTA) quotaProperties += rowCount;
      } else if (name === "HISTORY") {
        exportJobs += 1;
        requests += REQUESTS_PER_EXPORT_JOB;
      } else distinct.add(formula.toUpperCase());
    }
  }
  for (const [row, count] of items) requests += Math.ceil(count / row.maxPerCall);
  return { formulas: formulas.length, requests: requests + distinct.size, quotaProperties, exportJobs };
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

/** The time `requests` take at the pacing in force, from a full allowance: what the pacing alone adds. */
function paceWords(requests: number, pacing: PacingOptions): string {
  const waitMs = new TokenBucket(pacing, () => 0).waitFor(requests);
  const allowed = `the service allows ${limitInWords(pacing)}`;
  if (waitMs < 60_000) return allowed;
  return `about ${Math.ceil(waitMs / 60_000)} min at its pace: ${allowed}`;
}

/** The cost in words, for the person to weigh before confirming. */
export function costWords(cost: RecalculationCost, pacing: PacingOptions): string {
  const parts = [
    `up to ${plural(cost.requests, "request", "requests")} (${paceWords(cost.requests, pacing)})`,
  ];
  if (cost.quotaProperties > 0)
    parts.push(`up to ${plural(cost.quotaProperties, "property", "properties")} of the bulk export quota`);
  if (cost.exportJobs > 0)
    parts.push(
      `at least ${plural(cost.exportJobs, "export job", "export jobs")} (RENT.HISTORY: one per ` +
        `${MAX_JOB_PROPERTY_IDS.toLocaleString("en-US")} properties and ${MAX_JOB_RANGE_DAYS} days of a formula, ` +
        `each taking minutes and looking at the service while it runs)`,
    );
  const last = parts.pop() as string;
  const listed = parts.length === 0 ? last : `${parts.join(", ")} and ${last}`;
  return `${listed}. Answers still in the cache cost nothing.`;
}
