/**
 * A personal key removed from Redis by other means than `users revoke` (an admin's HDEL, a restore of an older
 * copy), so without the revocation message every instance listens for: the relay refuses it on its next request
 * and still refuses it when Redis goes away afterwards. The copy of a key an instance keeps for Redis's absence
 * must follow what Redis last said about it, not only the messages.
 */
import { Redis } from "ioredis";
import type { RunningSandbox } from "../../sandbox/server";
import { startRedis, type RunningRedis } from "./support/redisServer";
import { startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

/** Where the Redis store keeps its users: one hash, field the key id (relay/store/redisStore.ts). */
const USERS_HASH = "rent-relay:users";

let sandbox: RunningSandbox;
let redis: RunningRedis;
let relay: TestRelay;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  redis = await startRedis();
  relay = await startTestRelay(sandbox, { store: redis.url });
});

afterAll(async () => {
  await relay?.close();
  await redis?.stop();
  await sandbox?.close();
});

test("a key deleted from Redis without a revocation message stays refused while Redis is down", async () => {
  const leaving = await relay.addUser("leaving", [100]);
  const staying = await relay.addUser("staying", [100]);
  // The instance has seen both keys work: it keeps a copy of each for when Redis is away.
  for (const key of [leaving, staying]) expect((await relay.api(key, "/v1/accounts")).status).toBe(200);

  const direct = new Redis(redis.url);
  try {
    const records = await direct.hgetall(USERS_HASH);
    const keyId = Object.entries(records).find(([, text]) => JSON.parse(text).name === "leaving")?.[0];
    expect(keyId).toBeDefined();
    expect(await direct.hdel(USERS_HASH, keyId as string)).toBe(1);
  } finally {
    direct.disconnect();
  }

  expect((await relay.api(leaving, "/v1/accounts")).status).toBe(401);
  await redis.stop();
  const refused = await relay.api(leaving, "/v1/accounts");
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { message: string }).message).toMatch(/revoked or never issued/);
  // The other key keeps working from the instance's copy.
  expect((await relay.api(staying, "/v1/accounts")).status).toBe(200);
});
