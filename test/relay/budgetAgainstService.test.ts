/**
 * The relay's budget judged by the service, not by the relay's own count: the sandbox enforces the live limit
 * (100 requests per 300 s) on the same moving clock as the relay's live budget, and two people ask for more
 * than a window's worth. Every request must be answered, none refused by the service.
 */
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { LIVE_PACING } from "../../src/data/tokenBucket";
import { settle, until } from "./support/movingClock";
import { startLiveBudgetRelay, type LiveBudgetRelay } from "./support/liveBudgetRelay";

const LIVE_LIMIT = 100;
const LIVE_WINDOW_SECONDS = 300;
/** Per person: together more than the burst and the rest of one window. */
const EACH = 75;
const STEP_MS = 1_000;

let sandbox: RunningSandbox;
let relay: LiveBudgetRelay;
let serviceRefusals = 0;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    rateLimit: LIVE_LIMIT,
    rateLimitWindowSeconds: LIVE_WINDOW_SECONDS,
    now: Date.now(),
    logger: {
      stream: {
        write: (line: string) => {
          const entry = JSON.parse(line) as { msg?: string; res?: { statusCode?: number } };
          if (entry.msg === "request completed" && entry.res?.statusCode === 429) serviceRefusals++;
        },
      },
    },
  });
  relay = await startLiveBudgetRelay(sandbox, { maxQueuedPerPerson: 2 * EACH });
  sandbox.clock.set(relay.clock.now());
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

test("two people asking for 150 reads get every answer, paced so the service refuses none", async () => {
  const people = [await relay.addUser("first", [100]), await relay.addUser("second", [100])];
  const ids = sandbox
    .dataset()
    .properties.filter((property) => property.hasForecast)
    .map((property) => property.id)
    .slice(0, people.length * EACH);
  const statuses: number[] = [];
  ids.forEach((id, index) => {
    void relay
      .api(people[index % people.length] as string, `/v1/properties/${id}/forecasts`, {
        account_id: 100,
        aggregations: [{ name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" }],
      })
      .then(
        (answer) => statuses.push(answer.status),
        () => statuses.push(0),
      );
  });
  await until("the burst to be answered", () => statuses.length >= LIVE_PACING.burst);
  const started = relay.clock.now();
  const waiting = () => relay.waiting("first") + relay.waiting("second");
  while (statuses.length < ids.length && relay.clock.now() - started < 3 * LIVE_WINDOW_SECONDS * 1000) {
    await relay.clock.advance(STEP_MS);
    sandbox.clock.set(relay.clock.now());
    await settle();
    // What the step let out is answered before the clocks move on: the sandbox's work takes no budget time.
    await until("the requests on the wire to be answered", () => statuses.length + waiting() === ids.length);
  }

  expect(statuses).toHaveLength(ids.length);
  expect(statuses.filter((status) => status !== 200)).toEqual([]);
  expect(serviceRefusals).toBe(0);
  // The budget was really in force: the 100 requests past the burst took the pacing's spacing, one per 6 s.
  const spacingMs = LIVE_PACING.windowMs / (LIVE_PACING.limit - LIVE_PACING.burst);
  expect(relay.clock.now() - started).toBeGreaterThanOrEqual(
    (ids.length - LIVE_PACING.burst - 1) * spacingMs,
  );
}, 120_000);
