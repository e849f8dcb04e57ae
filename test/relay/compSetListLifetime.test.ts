/**
 * Whether a person may read a comp set is decided from their accounts' comp set lists. A list the relay has
 * cached answers that question for the list's lifetime (an hour: a comp set list has no schedule); once it is
 * past, the list is read again, so a comp set moved or removed meanwhile is not still granted from an old list.
 */
import { compSetsOf } from "../../sandbox/data/compSets";
import type { RunningSandbox } from "../../sandbox/server";
import { startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

const ACCOUNT = 100;
const LISTS = "/v1/accounts/:account_id/comp_sets";
const HOUR_MS = 3_600_000;

let sandbox: RunningSandbox;
let relay: TestRelay;
let clockMs = Date.parse("2026-11-25T14:00:00Z");

beforeAll(async () => {
  sandbox = await startTestSandbox();
  relay = await startTestRelay(sandbox, { clock: () => clockMs });
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

test("the comp set list that grants access is read again once its hour has passed", async () => {
  // One of the relay's two accounts: the relay checks this person against the account's list.
  const key = await relay.addUser("one-account", [ACCOUNT]);
  const compSetId = compSetsOf(sandbox.dataset()).find((compSet) => compSet.accountId === ACCOUNT)?.id;
  const units = async () => (await relay.api(key, `/v1/comp_sets/${compSetId}/units`)).status;

  expect(await units()).toBe(200);
  const read = sandbox.counters.get(LISTS);
  expect(read).toBeGreaterThan(0);
  clockMs += HOUR_MS / 2;
  expect(await units()).toBe(200);
  expect(sandbox.counters.get(LISTS)).toBe(read);
  clockMs += HOUR_MS / 2 + 1000;
  expect(await units()).toBe(200);
  expect(sandbox.counters.get(LISTS)).toBe(read + 1);
});
