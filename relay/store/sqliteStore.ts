import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  unlinkSync,
} from "node:fs";
import Database from "better-sqlite3";
import type { EntryMeta, PersistentStore, StoredEntry } from "../../src/data/persistentStore";
import { LocalBudget, LocalCounters, LocalFlights } from "./localCoordination";
import type { DownloadLinks, JobOwners, RelayStore, UserRecord, UserRecords } from "./relayStore";
import { REAL_CLOCK, StoreBusyError, retryWhileBusy, type RetryClock } from "./retry";
import { claimSqliteFile, type FileClaim } from "./sqliteClaim";

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS users (key_id TEXT PRIMARY KEY, name TEXT NOT NULL, record TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS users_by_name ON users (name);
  CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, meta TEXT NOT NULL, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS job_owners (job_id TEXT PRIMARY KEY, user TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS downloads (id TEXT PRIMARY KEY, url TEXT NOT NULL, expires_at INTEGER NOT NULL);
`;

/** How long a request waits for a store locked by another program before it is answered with an error. */
const BUSY_DEADLINE_MS = 5000;
/** How long a job's owner waits for the file before it goes to the owners journal instead. */
const OWNER_DEADLINE_MS = 2000;
/** How often owners parked in the journal are tried again. */
const JOURNAL_RETRY_MS = 1000;

type Db = Database.Database;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/**
 * Every statement goes through here. The connection's own busy timeout is 0, so a locked file answers
 * SQLITE_BUSY at once instead of blocking the event loop; the wait happens here, between timers.
 */
class Statements {
  constructor(
    readonly db: Db,
    readonly file: string,
    private readonly clock: RetryClock,
    private readonly deadlineMs: number,
  ) {}

  run<T>(work: (db: Db) => T, deadlineMs = this.deadlineMs): Promise<T> {
    return retryWhileBusy(() => work(this.db), isBusy, {
      deadlineMs,
      clock: this.clock,
      busyMessage: `The relay's store ${this.file} stayed locked by another program (a second relay, a backup or a sqlite3 shell) for ${Math.round(deadlineMs / 1000)} s. Let that program finish, then try again.`,
    });
  }
}

class SqliteUsers implements UserRecords {
  constructor(private readonly sql: Statements) {}

  async byKeyId(keyId: string): Promise<UserRecord | undefined> {
    const row = await this.sql.run(
      (db) =>
        db.prepare("SELECT record FROM users WHERE key_id = ?").get(keyId) as { record: string } | undefined,
    );
    return row ? (JSON.parse(row.record) as UserRecord) : undefined;
  }

  async put(record: UserRecord): Promise<void> {
    await this.sql.run((db) =>
      db
        .prepare("INSERT OR REPLACE INTO users (key_id, name, record) VALUES (?, ?, ?)")
        .run(record.keyId, record.name, JSON.stringify(record)),
    );
  }

  removeByName(name: string): Promise<number> {
    return this.sql.run((db) => db.prepare("DELETE FROM users WHERE name = ?").run(name).changes);
  }

  async list(): Promise<UserRecord[]> {
    const rows = await this.sql.run(
      (db) => db.prepare("SELECT record FROM users ORDER BY name").all() as { record: string }[],
    );
    return rows.map((row) => JSON.parse(row.record) as UserRecord);
  }
}

/** The response cache's durable tier in SQLite: one row per entry, written in one transaction per batch. */
class SqliteCache implements PersistentStore {
  constructor(private readonly sql: Statements) {}

  getMany(keys: string[]): Promise<(StoredEntry | undefined)[]> {
    return this.sql.run((db) => {
      const read = db.prepare("SELECT meta, value FROM cache WHERE key = ?");
      return keys.map((key) => {
        const row = read.get(key) as { meta: string; value: string } | undefined;
        return row
          ? { meta: JSON.parse(row.meta) as EntryMeta, value: JSON.parse(row.value) as unknown }
          : undefined;
      });
    });
  }

  async setMany(entries: [string, StoredEntry][]): Promise<void> {
    await this.sql.run((db) => {
      const write = db.prepare("INSERT OR REPLACE INTO cache (key, meta, value) VALUES (?, ?, ?)");
      db.transaction(() => {
        for (const [key, entry] of entries)
          write.run(key, JSON.stringify(entry.meta), JSON.stringify(entry.value));
      })();
    });
  }

  async deleteMany(keys: string[]): Promise<void> {
    await this.sql.run((db) => {
      const remove = db.prepare("DELETE FROM cache WHERE key = ?");
      db.transaction(() => {
        for (const key of keys) remove.run(key);
      })();
    });
  }

  async allMeta(): Promise<Map<string, EntryMeta>> {
    const rows = await this.sql.run(
      (db) => db.prepare("SELECT key, meta FROM cache").all() as { key: string; meta: string }[],
    );
    return new Map(rows.map((row) => [row.key, JSON.parse(row.meta) as EntryMeta]));
  }

  async clear(): Promise<void> {
    await this.sql.run((db) => db.prepare("DELETE FROM cache").run());
  }
}

/**
 * Who submitted each export job. The job already exists at the service when its owner is recorded, so the
 * record must not be lost to a locked file: `set` writes the row (waiting for the lock without blocking),
 * and when the file stays locked past the owner deadline it appends the owner to a journal beside the file
 * (`<file>.job-owners.jsonl`, synced to disk) instead. The journal is moved into the table once the lock is
 * free, and at the next start. Either way `set` resolves only once the owner is on disk.
 */
class SqliteJobOwners implements JobOwners {
  /** Owners this instance recorded, so it answers for them at once, whatever the file's lock. */
  private readonly known = new Map<string, string>();
  private journalTimer: NodeJS.Timeout | undefined;
  readonly journal: string;

  constructor(
    private readonly sql: Statements,
    private readonly ownerDeadlineMs: number,
  ) {
    this.journal = `${sql.file}.job-owners.jsonl`;
  }

  async set(jobId: string, user: string): Promise<void> {
    this.known.set(jobId, user);
    try {
      await this.sql.run(
        (db) => db.prepare("INSERT OR REPLACE INTO job_owners (job_id, user) VALUES (?, ?)").run(jobId, user),
        this.ownerDeadlineMs,
      );
    } catch (error) {
      if (!(error instanceof StoreBusyError)) throw error;
      this.park(jobId, user);
    }
  }

  async get(jobId: string): Promise<string | undefined> {
    const known = this.known.get(jobId);
    if (known !== undefined) return known;
    const row = await this.sql.run(
      (db) =>
        db.prepare("SELECT user FROM job_owners WHERE job_id = ?").get(jobId) as { user: string } | undefined,
    );
    return row?.user;
  }

  /** Moves the journal into the table in one transaction; false when the file is still locked. */
  applyJournal(): boolean {
    if (!existsSync(this.journal)) return true;
    const lines = readFileSync(this.journal, "utf8").split("\n").filter(Boolean);
    const owners = lines.flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { jobId?: unknown; user?: unknown };
        return typeof entry.jobId === "string" && typeof entry.user === "string" ? [entry] : [];
      } catch {
        return []; // a line cut short by a crash mid-append
      }
    }) as { jobId: string; user: string }[];
    try {
      const write = this.sql.db.prepare("INSERT OR REPLACE INTO job_owners (job_id, user) VALUES (?, ?)");
      this.sql.db.transaction(() => {
        for (const { jobId, user } of owners) write.run(jobId, user);
      })();
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    }
    // Read, written and removed with no await in between: no append of this process can fall in the gap.
    unlinkSync(this.journal);
    return true;
  }

  /** Starts moving the journal into the table, trying again each second while the file is locked. */
  retryJournal(): void {
    if (this.journalTimer || this.applyJournal()) return;
    this.journalTimer = setInterval(() => {
      if (!this.applyJournal()) return;
      clearInterval(this.journalTimer);
      this.journalTimer = undefined;
    }, JOURNAL_RETRY_MS);
    this.journalTimer.unref();
  }

  stop(): void {
    clearInterval(this.journalTimer);
    this.journalTimer = undefined;
  }

  private park(jobId: string, user: string): void {
    const fd = openSync(this.journal, "a", 0o600);
    try {
      appendFileSync(fd, `${JSON.stringify({ jobId, user })}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.retryJournal();
  }
}

class SqliteDownloads implements DownloadLinks {
  constructor(
    private readonly sql: Statements,
    private readonly now: () => number,
  ) {}

  async put(id: string, url: string, ttlMs: number): Promise<void> {
    await this.sql.run((db) =>
      db.transaction(() => {
        db.prepare("DELETE FROM downloads WHERE expires_at <= ?").run(this.now());
        db.prepare("INSERT INTO downloads (id, url, expires_at) VALUES (?, ?, ?)").run(
          id,
          url,
          this.now() + ttlMs,
        );
      })(),
    );
  }

  async get(id: string): Promise<string | undefined> {
    const row = await this.sql.run(
      (db) =>
        db.prepare("SELECT url FROM downloads WHERE id = ? AND expires_at > ?").get(id, this.now()) as
          { url: string } | undefined,
    );
    return row?.url;
  }

  async take(id: string): Promise<string | undefined> {
    const row = await this.sql.run(
      (db) =>
        db
          .prepare("DELETE FROM downloads WHERE id = ? AND expires_at > ? RETURNING url")
          .get(id, this.now()) as { url: string } | undefined,
    );
    return row?.url;
  }
}

export interface SqliteStoreOptions {
  /** The clock of download links' lifetimes and of the budget. */
  now?: () => number;
  /**
   * True for a relay that serves requests: it claims the file, and a second relay on the same file is
   * refused (each would spend the team's whole budget). `users` commands and backups need no claim.
   */
  claim?: boolean;
  /** How long a statement waits for a lock held by another program (5 s by default). */
  busyDeadlineMs?: number;
  /** How long a job's owner waits for the file before it goes to the journal (2 s by default). */
  ownerDeadlineMs?: number;
  clock?: RetryClock;
}

/**
 * The embedded store: one SQLite file holds users, cached answers, job owners and download links, so a
 * restart keeps them. Budget, single-flight and counters belong to the one process and live in memory.
 */
export async function openSqliteStore(file: string, options: SqliteStoreOptions = {}): Promise<RelayStore> {
  const now = options.now ?? Date.now;
  const clock = options.clock ?? REAL_CLOCK;
  const db = new Database(file, { timeout: 0 });
  let claim: FileClaim | undefined;
  let owners: SqliteJobOwners | undefined;
  try {
    const sql = new Statements(db, file, clock, options.busyDeadlineMs ?? BUSY_DEADLINE_MS);
    await sql.run((handle) => handle.pragma("journal_mode = WAL"));
    await sql.run((handle) => handle.exec(SCHEMA));
    if (options.claim ?? true) claim = await claimSqliteFile(sql, file);
    owners = new SqliteJobOwners(sql, options.ownerDeadlineMs ?? OWNER_DEADLINE_MS);
    // Only the relay that holds the file moves the journal: a `users` command doing it could remove a line
    // the relay appends between the read and the removal.
    if (claim) owners.retryJournal();
    const jobOwners = owners;
    const claimed = claim;
    return {
      description: `sqlite:${file}`,
      users: new SqliteUsers(sql),
      cache: new SqliteCache(sql),
      jobOwners,
      downloads: new SqliteDownloads(sql, now),
      flights: new LocalFlights(),
      budget: new LocalBudget(now),
      counters: new LocalCounters(now),
      ping: async () => {
        await sql.run((handle) => handle.prepare("SELECT 1").get());
      },
      close: async () => {
        jobOwners.stop();
        try {
          if (claimed) jobOwners.applyJournal();
        } finally {
          await claimed?.release();
          db.close();
        }
      },
    };
  } catch (error) {
    owners?.stop();
    await claim?.release().catch(() => undefined);
    db.close();
    throw error;
  }
}

export type { Statements as SqliteStatements };
