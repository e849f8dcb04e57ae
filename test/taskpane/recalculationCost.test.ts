/**
 * What entering formulas again may cost, as the pane says it before a restore or a change of account: batched
 * rows by the contract's most items per call, property search by pages, export jobs for history formulas, one
 * request for any other call, identical formulas sharing theirs.
 */
import { LIVE_PACING, TokenBucket } from "../../src/data/tokenBucket";
import { costWords, recalculationCost } from "../../src/taskpane/recalculationCost";

const block = (formula: string, rowCount: number, columnCount = 1) => ({ formula, rowCount, columnCount });

it("counts a block's rows as ids of bulk details calls (200 a call) and of the quota, across blocks", () => {
  expect(
    recalculationCost([
      block('=RENT.PROPERTY(A2:A251, "asking_rent")', 250, 8),
      block('=IFERROR(rent.property(B2:B151, "unit_count"), 0)', 150),
    ]),
  ).toEqual({ formulas: 2, requests: 2, quotaProperties: 400, exportJobs: 0 });
});

it("counts markets 100 a call, property search in pages of 500, and no quota for markets", () => {
  expect(
    recalculationCost([
      block('=RENT.MARKET(A2:A151, "rent_avg_t30")', 150),
      block('=RENT.PROPERTIES("", "property_id", "max_results=1200")', 1_201),
    ]),
  ).toEqual({ formulas: 2, requests: 2 + 3, quotaProperties: 1_201, exportJobs: 0 });
});

it("counts every call of a nested formula, an export job per history formula, and identical formulas once", () => {
  expect(
    recalculationCost([
      block('=RENT.MARKET(RENT.BOUNDARY("Austin", "MSA"), "rent_avg_t30")', 1),
      block("=RENT.COMPSETS()", 4, 6),
      block("=rent.compsets()", 4, 6),
      block('=RENT.HISTORY(A2:A131, "avg_rent", D1, D2)', 130, 3),
      block("=MYRENT.UNITS(3)", 1),
    ]),
  ).toEqual({ formulas: 5, requests: 1 + 1 + 1 + 2, quotaProperties: 0, exportJobs: 1 });
});

it("says how long the pacing takes once that reaches a minute, in whole minutes rounded up", () => {
  const words = (requests: number) =>
    costWords({ formulas: 1, requests, quotaProperties: 0, exportJobs: 0 }, LIVE_PACING);
  // The live pacing: its burst at once, then one request per interval.
  const burst = LIVE_PACING.burst ?? 0;
  const interval = new TokenBucket(LIVE_PACING, () => 0).waitFor(burst + 1);
  const minute = burst + 60_000 / interval;
  expect(words(minute - 1)).toBe(
    `up to ${minute - 1} requests (the service allows 100 requests per 5 minutes). Answers still in the cache cost nothing.`,
  );
  expect(words(minute)).toContain(`(about 1 min at its pace: the service allows 100 requests per 5 minutes)`);
  expect(words(minute + 1)).toContain(`(about 2 min at its pace:`);
});
