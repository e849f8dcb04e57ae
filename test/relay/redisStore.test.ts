/**
 * The Redis store as several relay instances share it, against a real redis-server: one budget that admits
 * exactly the limit, a 429 pause that holds at every instance, and revocations that hold while Redis is away.
 * Clocks are injected and moved; nothing sleeps for a budget or a pause.
 */
import { createServer, type Server } from "node:net";
import { Redis } from "ioredis";
import type { RunningSandbox } from "../../sandbox/server";
import { openRedisStore } from "../../relay/store/redisStore";
import { openRelayStore } from "../../relay/store/openStore";
import type { RelayStore } from "../../relay/store/relayStore";
import { revokeUser } from "../../relay/users/userAdmin";
import { startRedis, type RunningRedis } from "./support/redisServer";
import { startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

/** The live service's budget (api-notes: about 100 requests per 5 minutes), half of it as a burst. */
const LIMIT = 100;
const WINDOW_MS = 300_000;
const BURST = 50;

const quiet = () => undefined;

describe("two instances' stores on one Redis, with a clock that moves", () => {
  let redis: RunningRedis;
  let clockMs: number;
  const now = () => clockMs;
  let east: RelayStore;
  let west: RelayStore;

  beforeAll(async () => {
    redis = await startRedis();
  });

  beforeEach(async () => {
    const cleaner = new Redis(redis.url);
    await cleaner.flushall();
    cleaner.disconnect();
    clockMs = 1_800_000_000_000;
    east = await openRedisStore({ url: redis.url, warn: quiet, now });
    west = await openRedisStore({ url: redis.url, warn: quiet, now });
  });

  afterEach(async () => {
    await east.close();
    await west.close();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  test("the shared budget admits exactly 100 in the first 300 s and 50 in each 300 s after, whichever instance asks", async () => {
    const start = clockMs;
    const admittedAt: number[] = [];
    const byInstance = { east: 0, west: 0 };
    // Both instances ask as fast as the budget lets them, every second for two windows.
    for (let second = 0; second <= 600; second++) {
      clockMs = start + second * 1000;
      for (;;) {
        const [eastWait, westWait] = [
          await east.budget.take(LIMIT, WINDOW_MS, BURST),
          await west.budget.take(LIMIT, WINDOW_MS, BURST),
        ];
        if (eastWait === 0) byInstance.east += 1;
        if (westWait === 0) byInstance.west += 1;
        for (const wait of [eastWait, westWait]) if (wait === 0) admittedAt.push(clockMs - start);
        if (eastWait > 0 || westWait > 0) break;
      }
    }
    const within = (from: number, to: number) => admittedAt.filter((at) => at >= from && at <= to).length;
    expect(within(0, 0)).toBe(BURST);
    expect(within(0, WINDOW_MS)).toBe(LIMIT);
    expect(within(WINDOW_MS + 1, 2 * WINDOW_MS)).toBe(LIMIT - BURST);
    // No 300 s span holds more than the limit.
    for (const at of admittedAt) expect(within(at, at + WINDOW_MS - 1)).toBeLessThanOrEqual(LIMIT);
    expect(byInstance.east).toBeGreaterThan(0);
    expect(byInstance.west).toBeGreaterThan(0);
  });

  test("an empty budget tells each instance how long until the next request, and that wait is right", async () => {
    for (let taken = 0; taken < BURST; taken++)
      expect(await east.budget.take(LIMIT, WINDOW_MS, BURST)).toBe(0);
    // One request every 300 s / 50 = 6 s once the burst is spent.
    const wait = await west.budget.take(LIMIT, WINDOW_MS, BURST);
    expect(wait).toBe(6000);
    clockMs += wait - 1;
    expect(await east.budget.take(LIMIT, WINDOW_MS, BURST)).toBe(1);
    clockMs += 1;
    expect(await east.budget.take(LIMIT, WINDOW_MS, BURST)).toBe(0);
  });

  test("an answer just published serves an identical request of another instance that comes after it; an error does not", async () => {
    const answer = (status: number) => ({
      status,
      headers: {},
      body: Buffer.from(`${status}`).toString("base64"),
    });
    // East sent the read and published its answer; west looked in the cache before east had stored it there.
    expect(await east.flights.claim("read", 60_000)).toBe(true);
    await east.flights.finish("read", answer(200));
    expect(await west.flights.claim("read", 60_000)).toBe(false);
    expect(await west.flights.waitFor("read", 60_000)).toEqual(answer(200));
    // A "not found" is an answer too; a failure is the service's state of that moment, so west asks again.
    for (const [status, reused] of [
      [404, true],
      [500, false],
      [429, false],
    ] as const) {
      expect(await east.flights.claim(`read ${status}`, 60_000)).toBe(true);
      await east.flights.finish(`read ${status}`, answer(status));
      expect(await west.flights.claim(`read ${status}`, 60_000)).toBe(!reused);
    }
  });

  test("a 429 pause taken at one instance holds at the other until it ends", async () => {
    const until = clockMs + 330_000;
    await east.budget.pauseUntil(until);
    expect(await west.budget.pausedUntil()).toBe(until);
    // A shorter pause reported later does not cut the longer one short.
    await west.budget.pauseUntil(clockMs + 10_000);
    expect(await east.budget.pausedUntil()).toBe(until);
    clockMs = until;
    expect(await west.budget.pausedUntil()).toBeLessThanOrEqual(clockMs);
  });

  test("a key confirmed by Redis keeps working at an instance while Redis is away, for 15 minutes at most", async () => {
    const record = {
      keyId: "steady",
      name: "steady",
      salt: "00",
      hash: "00",
      accounts: [100],
      admin: false,
      createdAt: "2026-01-01T00:00:00Z",
    };
    const own = await startRedis();
    const store = await openRedisStore({ url: own.url, warn: quiet, now });
    try {
      await store.users.put(record);
      expect(await store.users.byKeyId("steady")).toEqual(record);
      await own.stop();
      clockMs += 15 * 60_000 - 1;
      expect(await store.users.byKeyId("steady")).toEqual(record);
      clockMs += 1;
      expect(await store.users.byKeyId("steady")).toBeUndefined();
    } finally {
      await store.close();
      await own.stop();
    }
  });
  test("a browser link made at one instance opens once, at whichever instance the browser reaches first", async () => {
    await east.downloads.put("browser:once", "https://downloads.example/file.csv", 60_000);
    const taken = await Promise.all([
      east.downloads.take("browser:once"),
      west.downloads.take("browser:once"),
    ]);
    expect(taken.filter((url) => url !== undefined)).toEqual(["https://downloads.example/file.csv"]);
    expect(await east.downloads.take("browser:once")).toBeUndefined();
  });
});

/** Asks `read` until it answers `wanted` (Redis reconnecting, a write retried) or `attempts` run out. */
async function eventually<T>(read: () => Promise<T>, wanted: T, attempts = 150): Promise<T> {
  let last = await read();
  for (let attempt = 1; attempt < attempts && last !== wanted; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  return last;
}

test("an export job's owner recorded while Redis is away is written when it comes back, for every instance", async () => {
  const own = await startRedis();
  const east = await openRedisStore({ url: own.url, warn: quiet });
  const west = await openRedisStore({ url: own.url, warn: quiet });
  try {
    await own.stop();
    await east.jobOwners.set("job-while-away", "alice");
    // The instance that created the job answers for it at once.
    expect(await east.jobOwners.get("job-while-away")).toBe("alice");
    expect(await west.jobOwners.get("job-while-away")).toBeUndefined();
    // Redis comes back empty (no persistence in the tests): the owner is written again from the instance.
    await own.restart();
    expect(await eventually(() => west.jobOwners.get("job-while-away"), "alice")).toBe("alice");
  } finally {
    await east.close();
    await west.close();
    await own.stop();
  }
});

describe("two relays on one Redis when Redis goes away", () => {
  let sandbox: RunningSandbox;
  let redis: RunningRedis;
  let east: TestRelay;
  let west: TestRelay;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    redis = await startRedis();
    east = await startTestRelay(sandbox, { store: redis.url });
    west = await startTestRelay(sandbox, { store: redis.url });
  });

  afterAll(async () => {
    await east?.close();
    await west?.close();
    await redis?.stop();
    await sandbox?.close();
  });

  test("a key revoked before Redis became unreachable stays revoked at every instance; other keys keep working", async () => {
    const leaving = await east.addUser("leaving", [100]);
    const staying = await east.addUser("staying", [100]);
    // Both instances have seen both keys work.
    for (const relay of [east, west])
      for (const key of [leaving, staying]) expect((await relay.api(key, "/v1/accounts")).status).toBe(200);

    // `users revoke` from the command line, on its own connection to Redis; then Redis dies.
    const admin = await openRelayStore(redis.url, { warn: quiet, claim: false });
    expect(await revokeUser(admin.users, "leaving")).toBe(1);
    await admin.close();
    await redis.stop();

    for (const relay of [east, west]) {
      const refused = await relay.api(leaving, "/v1/accounts");
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { message: string }).message).toMatch(/revoked/);
      expect((await relay.api(staying, "/v1/accounts")).status).toBe(200);
    }
  });
});

test("redis-server given a port another program took meanwhile starts on another", async () => {
  const squatter: Server = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
  const taken = (squatter.address() as { port: number }).port;
  const offered: number[] = [];
  let redis: RunningRedis | undefined;
  try {
    redis = await startRedis({
      choosePort: async () => {
        // The first port offered is the taken one, as when another test grabs it between the pick and the bind.
        const port = offered.length === 0 ? taken : 0;
        offered.push(port);
        return port === 0 ? freeLoopbackPort() : port;
      },
    });
    expect(offered[0]).toBe(taken);
    expect(offered.length).toBe(2);
    expect(new URL(redis.url).port).not.toBe(String(taken));
    const store = await openRedisStore({ url: redis.url, warn: quiet });
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
  } finally {
    await redis?.stop();
    await new Promise((resolve) => squatter.close(resolve));
  }
});

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
