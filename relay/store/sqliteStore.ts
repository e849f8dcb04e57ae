import Database from "better-sqlite3";
import type { EntryMeta, PersistentStore, StoredEntry } from "../../src/data/persistentStore";
import { LocalBudget, LocalCounters, LocalFlights } from "./localCoordination";
import type { DownloadLinks, JobOwners, RelayStore, UserRecord, UserRecords } from "./relayStore";

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS users (key_id TEXT PRIMARY KEY, name TEXT NOT NULL, record TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS users_by_name ON users (name);
  CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, meta TEXT NOT NULL, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS job_owners (job_id TEXT PRIMARY KEY, user TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS downloads (id TEXT PRIMARY KEY, url TEXT NOT NULL, expires_at INTEGER NOT NULL);
`;

type Db = Database.Database;

class SqliteUsers implements UserRecords {
  constructor(private readonly db: Db) {}

  async byKeyId(keyId: string): Promise<UserRecord | undefined> {
    const row = this.db.prepare("SELECT record FROM users WHERE key_id = ?").get(keyId) as
      { record: string } | undefined;
    return row ? (JSON.parse(row.record) as UserRecord) : undefined;
  }

  async put(record: UserRecord): Promise<void> {
    this.db
      .prepare("INSERT OR REPLACE INTO users (key_id, name, record) VALUES (?, ?, ?)")
      .run(record.keyId, record.name, JSON.stringify(record));
  }

  async removeByName(name: string): Promise<number> {
    return this.db.prepare("DELETE FROM users WHERE name = ?").run(name).changes;
  }

  async list(): Promise<UserRecord[]> {
    const rows = this.db.prepare("SELECT record FROM users ORDER BY name").all() as { record: string }[];
    return rows.map((row) => JSON.parse(row.record) as UserRecord);
  }
}

/** The response cache's durable tier in SQLite: one row per entry, written in one transaction per batch. */
class SqliteCache implements PersistentStore {
  constructor(private readonly db: Db) {}

  async getMany(keys: string[]): Promise<(StoredEntry | undefined)[]> {
    const read = this.db.prepare("SELECT meta, value FROM cache WHERE key = ?");
    return keys.map((key) => {
      const row = read.get(key) as { meta: string; value: string } | undefined;
      return row
        ? { meta: JSON.parse(row.meta) as EntryMeta, value: JSON.parse(row.value) as unknown }
        : undefined;
    });
  }

  async setMany(entries: [string, StoredEntry][]): Promise<void> {
    const write = this.db.prepare("INSERT OR REPLACE INTO cache (key, meta, value) VALUES (?, ?, ?)");
    this.db.transaction(() => {
      for (const [key, entry] of entries)
        write.run(key, JSON.stringify(entry.meta), JSON.stringify(entry.value));
    })();
  }

  async deleteMany(keys: string[]): Promise<void> {
    const remove = this.db.prepare("DELETE FROM cache WHERE key = ?");
    this.db.transaction(() => {
      for (const key of keys) remove.run(key);
    })();
  }

  async allMeta(): Promise<Map<string, EntryMeta>> {
    const rows = this.db.prepare("SELECT key, meta FROM cache").all() as { key: string; meta: string }[];
    return new Map(rows.map((row) => [row.key, JSON.parse(row.meta) as EntryMeta]));
  }

  async clear(): Promise<void> {
    this.db.prepare("DELETE FROM cache").run();
  }
}

class SqliteJobOwners implements JobOwners {
  constructor(private readonly db: Db) {}

  async set(jobId: string, user: string): Promise<void> {
    this.db.prepare("INSERT OR REPLACE INTO job_owners (job_id, user) VALUES (?, ?)").run(jobId, user);
  }

  async get(jobId: string): Promise<string | undefined> {
    const row = this.db.prepare("SELECT user FROM job_owners WHERE job_id = ?").get(jobId) as
      { user: string } | undefined;
    return row?.user;
  }
}

class SqliteDownloads implements DownloadLinks {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  async put(id: string, url: string, ttlMs: number): Promise<void> {
    this.db.prepare("DELETE FROM downloads WHERE expires_at <= ?").run(this.now());
    this.db
      .prepare("INSERT INTO downloads (id, url, expires_at) VALUES (?, ?, ?)")
      .run(id, url, this.now() + ttlMs);
  }

  async get(id: string): Promise<string | undefined> {
    const row = this.db
      .prepare("SELECT url FROM downloads WHERE id = ? AND expires_at > ?")
      .get(id, this.now()) as { url: string } | undefined;
    return row?.url;
  }
}

/**
 * The embedded store: one SQLite file holds users, cached answers, job owners and download links, so a
 * restart keeps them. Budget, single-flight and counters belong to the one process and live in memory.
 */
export function openSqliteStore(file: string, now: () => number = Date.now): RelayStore {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.exec(SCHEMA);
  return {
    description: `sqlite:${file}`,
    users: new SqliteUsers(db),
    cache: new SqliteCache(db),
    jobOwners: new SqliteJobOwners(db),
    downloads: new SqliteDownloads(db, now),
    flights: new LocalFlights(),
    budget: new LocalBudget(now),
    counters: new LocalCounters(now),
    close: async () => {
      db.close();
    },
  };
}
