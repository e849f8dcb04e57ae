/**
 * A 200 that lacks what the contract requires of the operation's answer (here a lookup page without
 * `pagination`) is passed on but never kept: the next identical question goes to the service again, while a
 * whole answer is kept and serves the next one.
 */
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { startTestRelay, type TestRelay } from "./support/relayHarness";

const LOOKUP = "/v1/properties/lookup";

let sandbox: RunningSandbox;
let relay: TestRelay;
let key: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000 });
  relay = await startTestRelay(sandbox);
  key = await relay.addUser("analyst", [100]);
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

test("a 200 without pagination is passed on and asked again; a whole page is kept", async () => {
  const lookup = (page: number) => relay.api(key, `${LOOKUP}?account_id=100&per_page=1&page=${page}`);
  sandbox.faults.update({ replacedBodies: { lookupProperties: JSON.stringify({ data: [] }) } });
  const before = sandbox.counters.get(LOOKUP);
  for (let ask = 0; ask < 2; ask++) {
    const answer = await lookup(1);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ data: [] });
  }
  expect(sandbox.counters.get(LOOKUP)).toBe(before + 2);

  // The same relay keeps an answer that has its pagination: the second question costs nothing.
  sandbox.faults.update({ replacedBodies: {} });
  const whole = await lookup(2);
  expect(whole.status).toBe(200);
  expect(await whole.json()).toHaveProperty("pagination");
  expect((await lookup(2)).status).toBe(200);
  expect(sandbox.counters.get(LOOKUP)).toBe(before + 3);
});
