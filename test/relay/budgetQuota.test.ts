/**
 * What a 429 stops, with the live budget (100 per 300 s) and a clock the test moves. An account's quota answer
 * (a 429 with `quota_limit`, api-notes "Limits") stops that account's quota-bound calls only; a plain 429 that
 * names no usable wait holds everyone back as long as the add-in would (330 s, src/data/retryPolicy.ts), and
 * those who ask meanwhile are told until when, at once.
 */
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { DEFAULT_RETRY } from "../../src/data/retryPolicy";
import { until, withoutMovingClock } from "./support/movingClock";
import { startLiveBudgetRelay, type LiveBudgetRelay } from "./support/liveBudgetRelay";

const QUOTA = 3;
let sandbox: RunningSandbox;
let relay: LiveBudgetRelay;
let ids: number[];

beforeEach(async () => {
  // The sandbox's own rate limit is off: the relay's budget is under test, and the 429s are injected.
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000, bulkExportQuota: QUOTA });
  relay = await startLiveBudgetRelay(sandbox);
  ids = sandbox
    .dataset()
    .properties.slice(0, 5)
    .map((property) => property.id);
});

afterEach(async () => {
  await relay.close();
  await sandbox.close();
});

const bulkDetails = (account: number, some: number[]) =>
  `/v1/properties/bulk_details?account_id=${account}&property_ids=${some.join(",")}`;
const sent = (path: string) => sandbox.counters.get(path);

test("an account's quota answer stops that account's quota-bound calls, not the team's or its other reads", async () => {
  const owner = await relay.addUser("owner", [100, 103]);
  const colleague = await relay.addUser("colleague", [103]);

  const refused = await relay.api(owner, bulkDetails(100, ids));
  expect(refused.status).toBe(429);
  expect(await refused.json()).toMatchObject({ quota_limit: QUOTA });
  const retryAfter = Number(refused.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(sent("/v1/properties/bulk_details")).toBe(1);

  // The colleague's account, and the owner's other account, are answered while the clock stands still.
  const other = await withoutMovingClock(
    "the colleague's read",
    relay.api(colleague, bulkDetails(103, ids.slice(0, 2))),
  );
  expect(other.status).toBe(200);
  const ownersOther = await withoutMovingClock(
    "the owner's other account",
    relay.api(owner, bulkDetails(103, ids.slice(2, 3))),
  );
  expect(ownersOther.status).toBe(200);
  // The account's reads that do not count toward the quota go on too.
  const lookup = await withoutMovingClock(
    "a lookup of the account",
    relay.api(owner, "/v1/properties/lookup?account_id=100&per_page=1"),
  );
  expect(lookup.status).toBe(200);
  expect(sent("/v1/properties/bulk_details")).toBe(3);

  // The stopped account's next quota-bound call is answered with the quota answer, and costs no request.
  const stopped = await relay.api(owner, bulkDetails(100, ids.slice(4)));
  expect(stopped.status).toBe(429);
  expect(await stopped.json()).toMatchObject({ quota_limit: QUOTA });
  expect(Number(stopped.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(sent("/v1/properties/bulk_details")).toBe(3);

  // Once the service's wait is over, the account may ask again (one id is within its quota).
  await relay.clock.advance(retryAfter * 1000);
  const again = await withoutMovingClock(
    "the account after its wait",
    relay.api(owner, bulkDetails(100, ids.slice(4))),
  );
  expect(again.status).toBe(200);
  expect(sent("/v1/properties/bulk_details")).toBe(4);
});

test("a 429 that names no wait holds the team back for the add-in's 330 s, and says until when", async () => {
  const first = await relay.addUser("first", [100]);
  const second = await relay.addUser("second", [100]);
  sandbox.faults.update({ rateLimitBurst: 1, rateLimitHeaders: "none" });
  const lookup = (page: number) => `/v1/properties/lookup?account_id=100&per_page=1&page=${page}`;

  expect((await relay.api(first, lookup(1))).status).toBe(429);
  expect(sent("/v1/properties/lookup")).toBe(1);

  const held = await withoutMovingClock("the refusal during the pause", relay.api(second, lookup(2)));
  expect(held.status).toBe(429);
  expect(Number(held.headers.get("retry-after"))).toBe(DEFAULT_RETRY.defaultRateLimitWaitMs / 1000);
  expect((await held.json()).message).toMatch(/Rate limited until \d{2}:\d{2}/);
  expect(sent("/v1/properties/lookup")).toBe(1);

  // A wait longer than a request may sit out (the add-in's 30 s) is refused at once, to the end of it ...
  const pauseMs = DEFAULT_RETRY.defaultRateLimitWaitMs;
  await relay.clock.advance(pauseMs - 31_000);
  expect((await relay.api(second, lookup(2))).status).toBe(429);
  expect(sent("/v1/properties/lookup")).toBe(1);

  // ... and the last 15 s are sat out: the request waits for the clock, then goes.
  await relay.clock.advance(16_000);
  const waited = relay.api(second, lookup(2));
  await until("the request to wait at the gate", () => relay.waiting("second") === 1);
  expect(sent("/v1/properties/lookup")).toBe(1);
  await relay.clock.advance(15_000);
  expect((await waited).status).toBe(200);
  expect(sent("/v1/properties/lookup")).toBe(2);
});
