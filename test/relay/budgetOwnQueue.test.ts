/**
 * Turns belong to people (issue 32, finding 1), with the live budget (100 per 300 s, 50 at once) and a clock the
 * test moves: a colleague's forecasts of the same property and account, in other variants (offsets), are the
 * colleague's work, not theirs. They never wait in the person's queue, nor stay there once the person's own read
 * has its answer, so the person's next read goes out within one turn of the colleague's backlog.
 */
import type { RunningSandbox } from "../../sandbox/server";
import { until } from "./support/movingClock";
import { startLiveBudgetRelay, startRecordingSandbox, type LiveBudgetRelay } from "./support/liveBudgetRelay";

const BURST = 50;
const QUEUE_BOUND = 50;
const VARIANTS = 150;
const EVERY_MS = 6000; // (100 - 50) requests over 300 s: one every 6 s once the burst is spent

let sandbox: RunningSandbox;
let relay: LiveBudgetRelay;
/** The paths of the API requests that reached the sandbox, in order. */
const arrived: string[] = [];
const gone = new AbortController();

beforeAll(async () => {
  sandbox = await startRecordingSandbox(arrived);
  relay = await startLiveBudgetRelay(sandbox, { maxQueuedPerPerson: QUEUE_BOUND });
});

afterAll(async () => {
  // The colleague's backlog still waiting for the clock: its client goes, so it leaves the gate.
  gone.abort();
  await until("the gate to empty", () => Object.keys(relay.relay.gate.waiting()).length === 0);
  await relay.close();
  await sandbox.close();
});

const forecast = (key: string, propertyId: number, offset: string) =>
  relay
    .api(
      key,
      `/v1/properties/${propertyId}/forecasts`,
      {
        account_id: 100,
        offset,
        aggregations: [{ name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" }],
      },
      gone.signal,
    )
    .catch(() => undefined);

/** Moves the clock a turn at a time (at most `turns`) until `path` has reached the service. */
async function turnsUntilArrived(path: string, turns: number): Promise<number> {
  const before = arrived.length;
  let turn = 0;
  while (turn < turns && !arrived.slice(before).includes(path)) {
    await relay.clock.advance(EVERY_MS);
    turn += 1;
    await until("the next request to reach the service", () => arrived.length === before + turn);
  }
  return arrived.slice(before).includes(path) ? turn : Number.POSITIVE_INFINITY;
}

test("a colleague's forecast variants of the same property never fill a person's queue", async () => {
  const person = await relay.addUser("person", [100]);
  const colleague = await relay.addUser("colleague", [100]);
  const ids = sandbox
    .dataset()
    .properties.filter((property) => property.hasForecast)
    .map((property) => property.id);
  const [shared, next] = ids as [number, number];

  // The budget's burst is spent by someone else.
  const burster = await relay.addUser("burster", [100]);
  const burst = Array.from({ length: BURST }, (_, index) =>
    relay.api(burster, `/v1/properties/lookup?account_id=100&per_page=1&page=${index + 1}`),
  );
  expect((await Promise.all(burst)).every((answer) => answer.status === 200)).toBe(true);

  // The person waits for one forecast; the colleague asks for 150 variants of the same property's forecast.
  const own = forecast(person, shared, "0d");
  await until("the person's forecast to wait its turn", () => relay.waiting("person") === 1);
  let refused = 0;
  for (let day = 1; day <= VARIANTS; day++)
    void forecast(colleague, shared, `${day}d`).then((answer) => {
      if (answer?.status === 429) refused += 1;
    });
  await until(
    "the colleague's variants to queue or be refused",
    () => relay.waiting("colleague") + refused === VARIANTS,
  );
  expect(relay.waiting("colleague")).toBe(QUEUE_BOUND);
  expect(relay.waiting("person")).toBe(1);

  // The person's own read goes out on their turn; nothing of the colleague's is left in their queue.
  expect(await turnsUntilArrived(`/v1/properties/${shared}/forecasts`, 2)).toBeLessThanOrEqual(2);
  expect((await own)?.status).toBe(200);
  expect(relay.waiting("person")).toBe(0);

  // Their next read waits at most one turn of the colleague's, and is not refused for work not theirs.
  const second = forecast(person, next, "0d");
  await until("the person's next read to wait its turn", () => relay.waiting("person") === 1);
  expect(await turnsUntilArrived(`/v1/properties/${next}/forecasts`, 2)).toBeLessThanOrEqual(2);
  expect((await second)?.status).toBe(200);
});

test("a batch that carried a person's read leaves their queue when their read ends", async () => {
  const shared = await startLiveBudgetRelay(sandbox, { batchWindowMs: 300 });
  const client = new AbortController();
  const personGone = new AbortController();
  try {
    const opener = await shared.addUser("opener", [100]);
    const person = await shared.addUser("person", [100]);
    const ids = sandbox
      .dataset()
      .properties.filter((property) => property.hasForecast)
      .map((property) => property.id);
    const ask = (key: string, id: number, field: string, signal: AbortSignal) =>
      shared
        .api(
          key,
          `/v1/properties/${id}/forecasts`,
          { account_id: 100, aggregations: [{ name: "f", field, aggregation_type: "avg" }] },
          signal,
        )
        .catch(() => undefined);

    // The burst is spent, then the opener has a backlog waiting.
    const burst = Array.from({ length: BURST }, (_, index) =>
      shared.api(opener, `/v1/properties/lookup?account_id=100&per_page=1&page=${index + 1}`),
    );
    expect((await Promise.all(burst)).every((answer) => answer.status === 200)).toBe(true);
    ids.slice(0, 5).forEach((id) => void ask(opener, id, "rent_growth_rate_yoy", client.signal));
    await until("the opener's backlog", () => shared.waiting("opener") === 5);

    // The opener and the person ask for fields of one property within one batch window: one call, in both queues.
    const target = ids[20] as number;
    void ask(opener, target, "rent_growth_rate_yoy", client.signal);
    const persons = ask(person, target, "occupancy_percent", personGone.signal);
    await until("the shared call to wait in the person's queue too", () => shared.waiting("person") === 1);

    // The person's client goes: the call is the opener's alone again.
    personGone.abort();
    await persons;
    await until("the person's queue to empty", () => shared.waiting("person") === 0);
    expect(shared.waiting("opener")).toBe(6);
  } finally {
    client.abort();
    await until("the gate to empty", () => Object.keys(shared.relay.gate.waiting()).length === 0);
    await shared.close();
  }
});
