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
/** Key ids of revoked keys, published so every instance forgets them at once. */
const REVOKED = `${PREFIX}revoked`;
/** How long a key confirmed by Redis keeps working at an instance while Redis is away. */
const LAST_KNOWN_MAX_AGE_MS = 15 * 60_000;
/** How often owners of jobs recorded while Redis was away are tried again. */
const OWNER_RETRY_MS = 1000;
const FLIGHT_ANSWER_TTL_MS = 30_000;
const FLIGHT_POLL_MS = 20;
const WARNING_INTERVAL_MS = 10_000;

/**
 * A token bucket shared by every instance: refill, take one or answer the wait, in one atomic step. It counts
 * in whole units (a token is `window` units; each ms adds `limit - burst` units), so no rounding of a
 * float ever admits a request more or less than the limit: burst + refill over one window is the limit.
 */
const TAKE_SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local refill = limit - burst
if refill <= 0 then refill = burst end
local capacity = burst * window
local state = redis.call('HMGET', KEYS[1], 'units', 'at', 'window')
local units = tonumber(state[1])
local at = tonumber(state[2]) or now
local previous = tonumber(state[3])
if units == nil or previous == nil then
  units = capacity
elseif previous ~= window then
  -- the service reported another window: the same tokens, in the new window's units
  units = math.floor(units / previous) * window
end
if now > at then units = math.min(capacity, units + (now - at) * refill) else now = at end
units = math.min(capacity, units)
local wait = 0
if units >= window then units = units - window else wait = math.ceil((window - units) / refill) end
redis.call('HSET', KEYS[1], 'units', string.format('%.0f', units), 'at', string.format('%.0f', now), 'window', tostring(window))
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
  /**
   * Records confirmed by Redis, so known keys keep working while Redis is away. A revocation is published
   * (REVOKED) and drops the key here at once; after a lost subscription every record is dropped, as a
   * revocation may have passed unheard; and none is trusted longer than LAST_KNOWN_MAX_AGE_MS.
   */
  private readonly lastKnown = new Map<string, { record: UserRecord; confirmedAt: number }>();

  constructor(
    private readonly redis: Redis,
    private readonly degrade: Degrader,
    private readonly now: () => number,
  ) {}

  async byKeyId(keyId: string): Promise<UserRecord | undefined> {
    return this.degrade.run(
      async () => {
        const text = await this.redis.hget(USERS, keyId);
        const record = text ? (JSON.parse(text) as UserRecord) : undefined;
        if (record) this.lastKnown.set(keyId, { record, confirmedAt: this.now() });
        else this.lastKnown.delete(keyId);
        return record;
      },
      () => {
        const known = this.lastKnown.get(keyId);
        return known && this.now() - known.confirmedAt < LAST_KNOWN_MAX_AGE_MS ? known.record : undefined;
      },
    );
  }

  async put(record: UserRecord): Promise<void> {
    await this.redis.hset(USERS, record.keyId, JSON.stringify(record));
  }

  async removeByName(name: string): Promise<number> {
    const gone = (await this.list()).filter((record) => record.name === name);
    if (gone.length === 0) return 0;
    const keyIds = gone.map((record) => record.keyId);
    for (const keyId of keyIds) this.lastKnown.delete(keyId);
    await this.redis
      .multi()
      .hdel(USERS, ...keyIds)
      .publish(REVOKED, JSON.stringify(keyIds))
      .exec();
    return gone.length;
  }

  async list(): Promise<UserRecord[]> {
    const all = await this.redis.hvals(USERS);
    return all.map((text) => JSON.parse(text) as UserRecord).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** A revocation published by any instance or `users revoke`. */
  revoked(message: string): void {
    try {
      for (const keyId of JSON.parse(message) as unknown[]) this.lastKnown.delete(String(keyId));
    } catch {
      this.forgetAll();
    }
  }

  forgetAll(): void {
    this.lastKnown.clear();
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

/**
 * Job owners in Redis. An owner recorded while Redis is away is kept at this instance and written as soon
 * as Redis answers again (tried each second), so the job is not lost to its owner; until then only this
 * instance can answer for it.
 */
class RedisJobOwners implements JobOwners {
  private readonly local = new Map<string, string>();
  private readonly unwritten = new Map<string, string>();
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly degrade: Degrader,
  ) {}

  async set(jobId: string, user: string): Promise<void> {
    this.local.set(jobId, user);
    try {
      await this.redis.hset(JOB_OWNERS, jobId, user);
    } catch (error) {
      this.degrade.note(error);
      this.unwritten.set(jobId, user);
      this.retryUnwritten();
    }
  }

  async get(jobId: string): Promise<string | undefined> {
    const local = this.local.get(jobId);
    if (local !== undefined) return local;
    return this.degrade.run(
      async () => (await this.redis.hget(JOB_OWNERS, jobId)) ?? undefined,
      () => undefined,
    );
  }

  /** Owners still waiting for Redis. */
  get pending(): number {
    return this.unwritten.size;
  }

  stop(): void {
    clearInterval(this.retryTimer);
    this.retryTimer = undefined;
  }

  private retryUnwritten(): void {
    if (this.retryTimer) return;
    this.retryTimer = setInterval(() => {
      const owners = Object.fromEntries(this.unwritten);
      this.redis.hset(JOB_OWNERS, owners).then(
        () => {
          for (const [jobId, user] of Object.entries(owners))
            if (this.unwritten.get(jobId) === user) this.unwritten.delete(jobId);
          if (this.unwritten.size === 0) this.stop();
        },
        () => undefined, // still away: the next tick tries again
      );
    }, OWNER_RETRY_MS);
    this.retryTimer.unref();
  }
}

class RedisDownloads implements DownloadLinks {
  private readonly local = new Map<string, string>();
  /** Links Redis never got (it was away when they were made): only this instance can hand them out. */
  private readonly unshared = new Set<string>();

  constructor(
    private readonly redis: Redis,
    private readonly degrade: Degrader,
  ) {}

  async put(id: string, url: string, ttlMs: number): Promise<void> {
    this.local.set(id, url);
    setTimeout(() => {
      this.local.delete(id);
      this.unshared.delete(id);
    }, ttlMs).unref();
    await this.degrade.run(
      () => this.redis.set(`${PREFIX}download:${id}`, url, "PX", ttlMs),
      () => {
        this.unshared.add(id);
        return null;
      },
    );
  }

  async get(id: string): Promise<string | undefined> {
    return this.degrade.run(
      async () => (await this.redis.get(`${PREFIX}download:${id}`)) ?? this.local.get(id),
      () => this.local.get(id),
    );
  }

  async take(id: string): Promise<string | undefined> {
    const kept = this.local.get(id);
    this.local.delete(id);
    if (kept !== undefined && this.unshared.delete(id)) return kept;
    // A link Redis holds may have been taken at another instance: only Redis can say, so without it, no.
    return this.degrade.run(
      async () => (await this.redis.getdel(`${PREFIX}download:${id}`)) ?? undefined,
      () => undefined,
    );
  }
}

/** Whether a flight's answer may serve an identical request that comes after the flight ended. */
const reusedAfterwards = (status: number) => (status >= 200 && status < 300) || status === 404;

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
      async () => {
        // An answer another instance published a moment ago is this request's too: its sender may not have
        // put it in the shared cache yet, where this request looked before it came here. Errors other than a
        // "not found" are shared only with those who waited for them, never reused afterwards.
        const recent = await this.redis.get(`${PREFIX}flight-answer:${key}`);
        if (recent && reusedAfterwards((JSON.parse(recent) as SharedResponse).status)) return false;
        return (await this.redis.set(`${PREFIX}flight:${key}`, "1", "PX", ttlMs, "NX")) === "OK";
      },
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

/** How long a closing connection may take to end before its socket is destroyed (ioredis' default: 2 s). */
const DISCONNECT_BOUND_MS = 250;

/**
 * The store of several instances behind one load balancer: users, cache, budget, single-flight and counters
 * in one Redis. Commands fail at once while Redis is away (no offline queue), so a dead Redis costs a
 * warning and the shared parts, never a hung request.
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<RelayStore> {
  const now = options.now ?? Date.now;
  const degrade = new Degrader(options.warn, now);
  let closing = false;
  const connectionOptions = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1000,
    retryStrategy: (times: number) => (closing ? null : Math.min(times * 200, 2000)),
    // At close, how long a socket may take to end before it is destroyed. ioredis' timer for it stays even
    // when the socket had already gone (Redis down), so it is kept short: nothing waits on a closed relay.
    disconnectTimeout: DISCONNECT_BOUND_MS,
  };
  const redis = new Redis(options.url, connectionOptions);
  redis.on("error", (error: unknown) => degrade.note(error));
  await redis.connect();
  const users = new RedisUsers(redis, degrade, now);
  // Revocations arrive on a connection of their own (a subscribed connection runs no other commands).
  const revocations = new Redis(options.url, { ...connectionOptions, enableOfflineQueue: true });
  revocations.on("error", (error: unknown) => degrade.note(error));
  revocations.on("message", (_channel: string, message: string) => users.revoked(message));
  let subscribedOnce = false;
  revocations.on("ready", () => {
    // Back after a lost connection: a revocation may have passed unheard, so known keys are asked again.
    if (subscribedOnce) users.forgetAll();
    subscribedOnce = true;
  });
  try {
    await revocations.connect();
    await revocations.subscribe(REVOKED);
  } catch (error) {
    closing = true;
    redis.disconnect();
    revocations.disconnect();
    throw error;
  }
  const jobOwners = new RedisJobOwners(redis, degrade);
  return {
    description: `redis:${new URL(options.url).host}`,
    users,
    cache: new RedisCache(redis, degrade),
    jobOwners,
    downloads: new RedisDownloads(redis, degrade),
    flights: new RedisFlights(redis, degrade),
    budget: new RedisBudget(redis, degrade, now),
    counters: new RedisCounters(redis, degrade, now),
    ping: async () => {
      try {
        await redis.ping();
      } catch (error) {
        // ioredis' messages name the host and port at most, never the URL's password.
        throw new Error(`Redis does not answer: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
    },
    close: async () => {
      closing = true;
      jobOwners.stop();
      await Promise.all([disconnected(redis), disconnected(revocations)]);
    },
  };
}

/**
 * Ends a connection and resolves once it has closed, so the relay's `close` leaves nothing behind (ioredis keeps
 * a timer until the socket closes). A connection already down (reconnecting) may never say "end": the wait is
 * bounded by a timer that keeps nothing alive.
 */
function disconnected(client: Redis): Promise<void> {
  if (client.status === "end") return Promise.resolve();
  const ended = new Promise<void>((resolve) => {
    const bound = setTimeout(resolve, DISCONNECT_BOUND_MS);
    bound.unref();
    client.once("end", () => {
      clearTimeout(bound);
      resolve();
    });
  });
  client.disconnect();
  return ended;
}
