import { Redis } from "ioredis";
import type { EntryMeta, PersistentStore, StoredEntry } from "../../src/data/persistentStore";
import { LocalBudget, LocalCounters, LocalFlights } from "./localCoordination";
import type {
  Budget,
  Counters,
  DownloadLinks,
  Flights,
  JobOwners,
  RelayStore,
  SharedResponse,
  UserRecord,
  UserRecords,
} from "./relayStore";

const PREFIX = "rent-relay:";
const USERS = `${PREFIX}users`;
const CACHE_META = `${PREFIX}cache:meta`;
const CACHE_DATA = `${PREFIX}cache:data`;
const JOB_OWNERS = `${PREFIX}job-owners`;
const BUDGET = `${PREFIX}budget`;
const PAUSE = `${PREFIX}paused-until`;
const FLIGHT_ANSWER_TTL_MS = 30_000;
const FLIGHT_POLL_MS = 20;
const WARNING_INTERVAL_MS = 10_000;

/** A token bucket shared by every instance: refill, take one or answer the wait, in one atomic step. */
const TAKE_SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local refill = limit - burst
if refill <= 0 then refill = burst end
local rate = refill / window
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], window * 2)
return wait
`;

/**
 * When Redis cannot answer, every operation falls back to this instance alone (pass-through: its own budget,
 * no shared cache, no shared single-flight) and says so in the log, at most once per interval.
 */
class Degrader {
  private lastWarningAt = 0;

  constructor(
    private readonly warn: (message: string) => void,
    private readonly now: () => number,
  ) {}

  async run<T>(operation: () => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      this.note(error);
      return fallback();
    }
  }

  note(error: unknown): void {
    if (this.now() - this.lastWarningAt < WARNING_INTERVAL_MS) return;
    this.lastWarningAt = this.now();
    const reason = error instanceof Error ? error.message : String(error);
    this.warn(
      `Redis is unavailable (${reason}): this relay carries on alone, without the shared cache, budget and single-flight.`,
    );
  }
}

class RedisUsers implements UserRecords {
  /** Records seen last, so known keys keep working while Redis is down (revocations then wait for it). */
  private readonly lastKnown = new Map<string, UserRecord>();

  constructor(
    private readonly redis: Redis,
    private readonly degrade: Degrader,
  ) {}

  async byKeyId(keyId: string): Promise<UserRecord | undefined> {
    return this.degrade.run(
      async () => {
        const text = await this.redis.hget(USERS, keyId);
        const record = text ? (JSON.parse(text) as UserRecord) : undefined;
        if (record) this.lastKnown.set(keyId, record);
        else this.lastKnown.delete(keyId);
        return record;
      },
      () => this.lastKnown.get(keyId),
    );
  }

  async put(record: UserRecord): Promise<void> {
    await this.redis.hset(USERS, record.keyId, JSON.stringify(record));
  }

  async removeByName(name: string): Promise<number> {
    const gone = (await this.list()).filter((record) => record.name === name);
    if (gone.length > 0) await this.redis.hdel(USERS, ...gone.map((record) => record.keyId));
    return gone.length;
  }

  async list(): Promise<UserRecord[]> {
    const all = await this.redis.hvals(USERS);
    return all.map((text) => JSON.parse(text) as UserRecord).sort((a, b) => a.name.localeCompare(b.name));
  }
}

/** Failures propagate: the response cache already carries on in memory when its durable tier fails. */
class RedisCache implements PersistentStore {
  constructor(
    private readonly redis: Redis,
    private readonly degrade: Degrader,
  ) {}

  async getMany(keys: string[]): Promise<(StoredEntry | undefined)[]> {
    if (keys.length === 0) return [];
    try {
      const [metas, values] = await Promise.all([
        this.redis.hmget(CACHE_META, ...keys),
        this.redis.hmget(CACHE_DATA, ...keys),
      ]);
      return keys.map((_, index) => {
        const meta = metas[index];
        const value = values[index];
        return meta && value
          ? { meta: JSON.parse(meta) as EntryMeta, value: JSON.parse(value) as unknown }
          : undefined;
      });
    } catch (error) {
      this.degrade.note(error);
      throw error;
    }
  }

  async setMany(entries: [string, StoredEntry][]): Promise<void> {
    if (entries.length === 0) return;
    try {
      await this.redis
        .multi()
        .hset(
          CACHE_META,
          Object.fromEntries(entries.map(([key, entry]) => [key, JSON.stringify(entry.meta)])),
        )
        .hset(
          CACHE_DATA,
          Object.fromEntries(entries.map(([key, entry]) => [key, JSON.stringify(entry.value)])),
        )
        .exec();
    } catch (error) {
      this.degrade.note(error);
      throw error;
    }
  }

  async deleteMany(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.redis
      .multi()
      .hdel(CACHE_META, ...keys)
      .hdel(CACHE_DATA, ...keys)
      .exec();
  }

  async allMeta(): Promise<Map<string, EntryMeta>> {
    const all = await this.redis.hgetall(CACHE_META);
    return new Map(Object.entries(all).map(([key, meta]) => [key, JSON.parse(meta) as EntryMeta]));
  }

  async clear(): Promise<void> {
    await this.redis.del(CACHE_META, CACHE_DATA);
  }
}

class RedisJobOwners implements JobOwners {
  private readonly local = new Map<string, string>();

  constructor(
    private readonly redis: Redis,
    private readonly degrade: Degrader,
  ) {}

  async set(jobId: string, user: string): Promise<void> {
    this.local.set(jobId, user);
    await this.degrade.run(
      () => this.redis.hset(JOB_OWNERS, jobId, user),
      () => 0,
    );
  }

  async get(jobId: string): Promise<string | undefined> {
    return this.degrade.run(
      async () => (await this.redis.hget(JOB_OWNERS, jobId)) ?? this.local.get(jobId),
      () => this.local.get(jobId),
    );
  }
}

class RedisDownloads implements DownloadLinks {
  private readonly local = new Map<string, string>();

  constructor(
    private readonly redis: Redis,
    private readonly degrade: Degrader,
  ) {}

  async put(id: string, url: string, ttlMs: number): Promise<void> {
    this.local.set(id, url);
    setTimeout(() => this.local.delete(id), ttlMs).unref();
    await this.degrade.run(
      () => this.redis.set(`${PREFIX}download:${id}`, url, "PX", ttlMs),
      () => null,
    );
  }

  async get(id: string): Promise<string | undefined> {
    return this.degrade.run(
      async () => (await this.redis.get(`${PREFIX}download:${id}`)) ?? this.local.get(id),
      () => this.local.get(id),
    );
  }
}

class RedisFlights implements Flights {
  private readonly local = new LocalFlights();

  constructor(
    private readonly redis: Redis,
    private readonly degrade: Degrader,
  ) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    // The local claim first: requests of this instance never need Redis to find each other.
    if (!(await this.local.claim(key))) return false;
    const claimed = await this.degrade.run(
      async () => (await this.redis.set(`${PREFIX}flight:${key}`, "1", "PX", ttlMs, "NX")) === "OK",
      () => true,
    );
    if (!claimed) await this.local.finish(key, undefined);
    return claimed;
  }

  async finish(key: string, response: SharedResponse | undefined): Promise<void> {
    await this.local.finish(key, response);
    await this.degrade.run(
      async () => {
        const multi = this.redis.multi();
        if (response)
          multi.set(`${PREFIX}flight-answer:${key}`, JSON.stringify(response), "PX", FLIGHT_ANSWER_TTL_MS);
        await multi.del(`${PREFIX}flight:${key}`).exec();
      },
      () => undefined,
    );
  }

  async waitFor(key: string, timeoutMs: number): Promise<SharedResponse | undefined> {
    const local = await this.local.waitFor(key, timeoutMs);
    if (local) return local;
    const deadline = Date.now() + timeoutMs;
    return this.degrade.run(
      async () => {
        for (;;) {
          const [answer, claimed] = await Promise.all([
            this.redis.get(`${PREFIX}flight-answer:${key}`),
            this.redis.exists(`${PREFIX}flight:${key}`),
          ]);
          if (answer) return JSON.parse(answer) as SharedResponse;
          if (!claimed || Date.now() > deadline) return undefined;
          await new Promise((resolve) => setTimeout(resolve, FLIGHT_POLL_MS));
        }
      },
      () => undefined,
    );
  }
}

class RedisBudget implements Budget {
  private readonly local: LocalBudget;

  constructor(
    private readonly redis: Redis,
    private readonly degrade: Degrader,
    private readonly now: () => number,
  ) {
    this.local = new LocalBudget(now);
  }

  take(limit: number, windowMs: number, burst: number): Promise<number> {
    return this.degrade.run(
      async () => Number(await this.redis.eval(TAKE_SCRIPT, 1, BUDGET, limit, windowMs, burst, this.now())),
      () => this.local.take(limit, windowMs, burst),
    );
  }

  async pauseUntil(untilMs: number): Promise<void> {
    await this.local.pauseUntil(untilMs);
    const ttl = Math.max(1, Math.ceil(untilMs - this.now()));
    await this.degrade.run(
      async () => {
        const current = Number((await this.redis.get(PAUSE)) ?? 0);
        if (untilMs > current) await this.redis.set(PAUSE, String(untilMs), "PX", ttl);
      },
      () => undefined,
    );
  }

  async pausedUntil(): Promise<number> {
    const local = await this.local.pausedUntil();
    return this.degrade.run(
      async () => Math.max(local, Number((await this.redis.get(PAUSE)) ?? 0)),
      () => local,
    );
  }
}

class RedisCounters implements Counters {
  private readonly local: LocalCounters;

  constructor(
    private readonly redis: Redis,
    private readonly degrade: Degrader,
    now: () => number,
  ) {
    this.local = new LocalCounters(now);
  }

  async add(group: string, field: string, amount: number, ttlMs?: number): Promise<void> {
    const key = `${PREFIX}counters:${group}`;
    await this.degrade.run(
      async () => {
        const multi = this.redis.multi().hincrby(key, field, amount);
        if (ttlMs !== undefined) multi.pexpire(key, ttlMs, "NX");
        await multi.exec();
      },
      () => this.local.add(group, field, amount, ttlMs),
    );
  }

  async read(group: string): Promise<Record<string, number>> {
    return this.degrade.run(
      async () => {
        const all = await this.redis.hgetall(`${PREFIX}counters:${group}`);
        return Object.fromEntries(Object.entries(all).map(([field, value]) => [field, Number(value)]));
      },
      () => this.local.read(group),
    );
  }
}

export interface RedisStoreOptions {
  url: string;
  warn: (message: string) => void;
  now?: () => number;
}

/**
 * The store of several instances behind one load balancer: users, cache, budget, single-flight and counters
 * in one Redis. Commands fail at once while Redis is away (no offline queue), so a dead Redis costs a
 * warning and the shared parts, never a hung request.
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<RelayStore> {
  const now = options.now ?? Date.now;
  const degrade = new Degrader(options.warn, now);
  let closing = false;
  const redis = new Redis(options.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1000,
    retryStrategy: (times) => (closing ? null : Math.min(times * 200, 2000)),
  });
  redis.on("error", (error: unknown) => degrade.note(error));
  await redis.connect();
  return {
    description: `redis:${new URL(options.url).host}`,
    users: new RedisUsers(redis, degrade),
    cache: new RedisCache(redis, degrade),
    jobOwners: new RedisJobOwners(redis, degrade),
    downloads: new RedisDownloads(redis, degrade),
    flights: new RedisFlights(redis, degrade),
    budget: new RedisBudget(redis, degrade, now),
    counters: new RedisCounters(redis, degrade, now),
    close: async () => {
      closing = true;
      redis.disconnect();
    },
  };
}
