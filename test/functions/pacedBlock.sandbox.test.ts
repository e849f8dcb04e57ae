import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import {
  DEFAULT_CELL_TIMEOUT_MS,
  setCellTimeout,
  setPacingProgressCheck,
} from "../../src/functions/cellCall";
import { property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { fakeInvocation } from "../support/invocation";

// A block of ids that needs more requests than the pacing lets out within one cell's bound. The live limit
// (one request per 6 s after the burst, a 60 s bound: ten requests a bound) is scaled down together: one
// request per 100 ms, a 1 s bound, twenty requests. The cell must end with its values, not "No answer within".
const IDS = Array.from({ length: 4_000 }, (_, index) => 100_001 + index);
const BULK = "/v1/properties/bulk_details";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000, propertyCount: 4_000 });
  session.useDataOptions({ pacing: { limit: 10, windowMs: 1_000, burst: 1 } });
  await session.signIn(
    { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
    { kind: "client", clientId: "demo-pro", clientSecret: "sandbox-secret-pro" },
  );
  // The block spends 4,000 of the bulk export quota: allowed up front, as the pane's setting would.
  session.requireSignedIn().data.quota.configure({ maxShare: 1 });
});

afterAll(async () => {
  setCellTimeout(DEFAULT_CELL_TIMEOUT_MS);
  setPacingProgressCheck(undefined);
  session.signOut();
  await sandbox.close();
});

it("a block whose requests are still moving through the pacing at the cell's bound finishes with its values", async () => {
  setCellTimeout(1_000);
  const before = sandbox.counters.get(BULK);
  const block = await property(
    IDS.map((id) => [id]),
    [["unit_count"]],
    fakeInvocation(),
  );
  expect(sandbox.counters.get(BULK) - before).toBe(IDS.length / 200);
  expect(block).toHaveLength(IDS.length);
  const values = block.map((row) => (row as unknown[])[0]);
  const dataset = sandbox.dataset();
  expect(values.slice(0, 3)).toEqual(IDS.slice(0, 3).map((id) => dataset.propertyById.get(id)?.unitCount));
});
