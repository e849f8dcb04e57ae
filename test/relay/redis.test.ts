/**
 * Two relays behind one load balancer share a real redis-server: one upstream request for a cold question
 * asked at both at once, one cache, one set of users; and when Redis dies they carry on alone.
 */
import type { RunningSandbox } from "../../sandbox/server";
import { startRedis, type RunningRedis } from "./support/redisServer";
import { startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

const ACCOUNT = 100;

let sandbox: RunningSandbox;
let redis: RunningRedis;
let east: TestRelay;
let west: TestRelay;
let key: string;
let ids: number[];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  redis = await startRedis();
  east = await startTestRelay(sandbox, { store: redis.url });
  west = await startTestRelay(sandbox, { store: redis.url });
  // Made at one instance, known at the other: users live in Redis.
  key = await east.addUser("analyst", [ACCOUNT]);
  ids = sandbox
    .dataset()
    .properties.slice(10, 40)
    .map((property) => property.id);
});

afterAll(async () => {
  await east?.close();
  await west?.close();
  await redis?.stop();
  await sandbox?.close();
});

const detailsOf = (someIds: number[]) =>
  `/v1/properties/bulk_details?account_id=${ACCOUNT}&property_ids=${someIds.join(",")}`;

test("the same cold question asked at both relays at once costs one upstream request", async () => {
  const before = sandbox.counters.get("/v1/properties/bulk_details");
  const question = detailsOf(ids.slice(0, 5));
  const answers = await Promise.all([east.api(key, question), west.api(key, question)]);
  expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
  const [fromEast, fromWest] = await Promise.all(answers.map((answer) => answer.json()));
  expect(fromWest).toEqual(fromEast);
  expect((fromEast as { data: unknown[] }).data).toHaveLength(5);
  expect(sandbox.counters.get("/v1/properties/bulk_details")).toBe(before + 1);
});

test("an answer one relay fetched is served by the other from the shared cache", async () => {
  const before = sandbox.counters.get("/v1/explore_markets");
  const body = { account_id: ACCOUNT, limit: 4, sort: "rent_avg_t30", sort_direction: "desc" };
  expect((await east.api(key, "/v1/explore_markets", body)).status).toBe(200);
  expect((await west.api(key, "/v1/explore_markets", body)).status).toBe(200);
  expect(sandbox.counters.get("/v1/explore_markets")).toBe(before + 1);
});

test("with Redis killed mid-run both relays pass requests through, with a logged warning and no errors", async () => {
  expect((await west.api(key, detailsOf(ids.slice(5, 10)))).status).toBe(200);
  await redis.stop();
  const answers = await Promise.all([
    east.api(key, detailsOf(ids.slice(10, 15))),
    west.api(key, detailsOf(ids.slice(15, 20))),
    west.api(key, "/v1/accounts"),
  ]);
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
  const [eastBody, westBody] = (await Promise.all(answers.map((answer) => answer.json()))) as {
    data: unknown[];
  }[];
  expect(eastBody?.data).toHaveLength(5);
  expect(westBody?.data).toHaveLength(5);
  for (const relay of [east, west]) {
    expect(relay.log.text).toMatch(/"level":40.*Redis is unavailable.*carries on alone/);
    expect(relay.log.text).not.toMatch(/"level":50/);
  }
});
