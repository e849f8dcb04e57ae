/**
 * How cells behave over time: recalculating a formula is answered from the cache, the pane's Refresh
 * asks only what a posting may have changed, Excel's cancellation and the time bound end a call with an error instead of #BUSY!.
 */
import { setCellTimeout, DEFAULT_CELL_TIMEOUT_MS } from "../../src/functions/cellCall";
import { currentRefresh, endRefresh, startRefresh } from "../../src/functions/freshness";
import { market } from "../../src/functions/marketFunctions";
import { property } from "../../src/functions/propertyFunctions";
import { SERVICE_TIME_ZONE } from "../../src/data/freshnessSchedule";
import { session } from "../../src/session/session";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, UNPACED, type SignedInSandbox } from "../support/signedInSandbox";

const EXPLORE = "/v1/explore_markets";
let env: SignedInSandbox;
let msaId: number;

/**
 * A daily posting time twelve hours from now in the service's zone: these tests read the real clock, and a
 * posting that fell within their seconds would make a current answer stale between two of their lines.
 */
function postingFarFromNow(): string {
  const hour = Number(
    new Intl.DateTimeFormat("en-US", {
      timeZone: SERVICE_TIME_ZONE,
      hour: "numeric",
      hourCycle: "h23",
    }).format(Date.now()),
  );
  return `${String((hour + 12) % 24).padStart(2, "0")}:00`;
}

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro");
  session.useDataOptions({ ...UNPACED, postingTime: postingFarFromNow() });
  await env.signInAs("demo-pro");
  const found = await env.raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
    account_id: env.accountId,
    query: "Denver",
    geo_type: "MSA",
    limit: 1,
  });
  msaId = found.data[0]?.attributes.id as number;
});

afterEach(() => {
  endRefresh();
  setCellTimeout(DEFAULT_CELL_TIMEOUT_MS);
  env.sandbox.context.faults.reset();
});

afterAll(() => env.close());

it("answers a recalculated formula from the cache, and a Refresh before the next posting too", async () => {
  const start = env.sandbox.counters.get(EXPLORE);
  const first = await market([[msaId]], [["rent_avg_t30"]], undefined, fakeInvocation());
  expect(env.sandbox.counters.get(EXPLORE)).toBe(start + 1);

  await expect(market([[msaId]], [["rent_avg_t30"]], undefined, fakeInvocation())).resolves.toEqual(first);
  await expect(market([[msaId]], [["ner_avg_t30"]], undefined, fakeInvocation())).resolves.toEqual([
    [expect.any(Number)],
  ]);
  expect(env.sandbox.counters.get(EXPLORE)).toBe(start + 1);

  // Nothing was posted since the answer was fetched (seconds ago): the refresh counts it as already current.
  startRefresh([{ sheetName: "Sheet1", a1: "A1" }], Date.now());
  await expect(market([[msaId]], [["rent_avg_t30"]], undefined, fakeInvocation())).resolves.toEqual(first);
  expect(env.sandbox.counters.get(EXPLORE)).toBe(start + 1);
  expect(currentRefresh()?.report().counts).toEqual({ fresh: 0, current: 1, held: 0, failed: 0 });

  endRefresh();
  await market([[msaId]], [["rent_avg_t30"]], undefined, fakeInvocation());
  expect(env.sandbox.counters.get(EXPLORE)).toBe(start + 1);
});

// Were cancellation ignored, the call would end by the time bound instead, with a different message.
it("ends a call that Excel cancels with an error at once, not after the service answers", async () => {
  env.sandbox.context.faults.update({ latencyMs: 3_000 });
  setCellTimeout(2_000);
  const invocation = fakeInvocation();
  const pending = property([[116_723]], [["asking_rent"]], invocation);
  setTimeout(() => invocation.cancel(), 50);
  await expect(pending).rejects.toMatchObject({ code: "#N/A", message: expect.stringMatching(/cancel/i) });
});

it("ends a call that outlives the time bound with #N/A saying so", async () => {
  env.sandbox.context.faults.update({ latencyMs: 3_000 });
  setCellTimeout(100);
  await expect(property([[116_724]], [["unit_count"]], fakeInvocation())).rejects.toMatchObject({
    code: "#N/A",
    message: expect.stringContaining("No answer within"),
  });
});
