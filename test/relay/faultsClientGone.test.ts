/**
 * A request whose client has gone leaves the team gate and spends nothing, with the live budget (100 per
 * 300 s, 50 at once) and a clock the test moves: abandoned lookups (forwarded) and forecasts (batched) never
 * reach the service, and the budget they would have spent is there for the next person.
 */
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { until, withoutMovingClock } from "./support/movingClock";
import { startLiveBudgetRelay, type LiveBudgetRelay } from "./support/liveBudgetRelay";

let sandbox: RunningSandbox;
let relay: LiveBudgetRelay;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000 });
  relay = await startLiveBudgetRelay(sandbox);
});

afterAll(async () => {
  await relay.close();
  await sandbox.close();
});

const lookup = (page: number) => `/v1/properties/lookup?account_id=100&per_page=1&page=${page}`;
const apiRequests = () =>
  Object.entries(sandbox.counters.snapshot())
    .filter(([path]) => path.startsWith("/v1/"))
    .reduce((sum, [, count]) => sum + count, 0);

test("abandoned requests leave the queue, never reach the service and take no token", async () => {
  const hasty = await relay.addUser("hasty", [100]);
  const patient = await relay.addUser("patient", [100]);
  const ids = sandbox
    .dataset()
    .properties.filter((property) => property.hasForecast)
    .map((property) => property.id);

  // The budget's burst is spent.
  const burst = Array.from({ length: 50 }, (_, index) => relay.api(hasty, lookup(index + 1)));
  expect((await Promise.all(burst)).every((answer) => answer.status === 200)).toBe(true);
  expect(apiRequests()).toBe(50);

  // Ten lookups and ten forecasts wait for the budget; then their client goes.
  const client = new AbortController();
  const abandoned = [
    ...Array.from({ length: 10 }, (_, index) =>
      relay.api(hasty, lookup(100 + index), undefined, client.signal),
    ),
    ...ids.slice(0, 10).map((id) =>
      relay.api(
        hasty,
        `/v1/properties/${id}/forecasts`,
        {
          account_id: 100,
          aggregations: [{ name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" }],
        },
        client.signal,
      ),
    ),
  ].map((request) => request.catch(() => "gone"));
  await until("twenty requests at the gate", () => relay.waiting("hasty") === 20);
  client.abort();
  expect(await Promise.all(abandoned)).toEqual(Array(20).fill("gone"));
  await until("the abandoned requests to leave the gate", () => relay.waiting("hasty") === 0);

  // One request's worth of budget later, the next person's request goes at once: nobody took that token.
  await relay.clock.advance(6000);
  const next = await withoutMovingClock("the next person's request", relay.api(patient, lookup(1000)));
  expect(next.status).toBe(200);
  expect(apiRequests()).toBe(51);

  // However long the clock runs, none of the abandoned requests reaches the service.
  await relay.clock.advance(300_000);
  expect(apiRequests()).toBe(51);
});
