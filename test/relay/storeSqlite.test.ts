/**
 * The embedded store when another program holds the SQLite file's lock (a second relay, a backup, a sqlite3
 * shell): the event loop keeps running, no job's owner is lost, and a second relay on the file is refused.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { RelayStore } from "../../relay/store/relayStore";
import type { RetryClock } from "../../relay/store/retry";
import { openSqliteStore } from "../../relay/store/sqliteStore";
import { startTestRelay, startTestSandbox } from "./support/relayHarness";

let directory: string;
let file: string;
const opened: RelayStore[] = [];
const holders: Database.Database[] = [];

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), "relay-store-"));
  file = path.join(directory, "relay.sqlite");
});

afterEach(async () => {
  for (const holder of holders.splice(0)) holder.close();
  for (const store of opened.splice(0)) await store.close();
  rmSync(directory, { recursive: true, force: true });
});

async function open(options: Parameters<typeof openSqliteStore>[1] = {}): Promise<RelayStore> {
  const store = await openSqliteStore(file, options);
  opened.push(store);
  return store;
}

/** Another program's connection in the middle of a write: it holds the file's write lock until COMMIT. */
function holdWriteLock(): Database.Database {
  const holder = new Database(file, { timeout: 0 });
  holders.push(holder);
  holder.exec("BEGIN IMMEDIATE");
  holder.prepare("INSERT OR REPLACE INTO cache (key, meta, value) VALUES ('other', '{}', '1')").run();
  return holder;
}

/** The owners table as a separate reader (a later relay, an admin) finds it on disk. */
function ownerOnDisk(jobId: string): string | undefined {
  const reader = new Database(file, { readonly: true });
  try {
    const row = reader.prepare("SELECT user FROM job_owners WHERE job_id = ?").get(jobId) as
      { user: string } | undefined;
    return row?.user;
  } finally {
    reader.close();
  }
}

/** A clock whose waits pass at once: a deadline of seconds is reached in a few turns of the event loop. */
function movingClock(): RetryClock {
  let now = 1_000_000;
  return {
    now: () => now,
    sleep: (ms) =>
      new Promise((resolve) => {
        now += ms;
        setImmediate(resolve);
      }),
  };
}

test("an owner written while another program holds the lock waits for it without holding the event loop", async () => {
  const store = await open({ claim: false });
  const holder = holdWriteLock();
  let lockReleased = false;
  // Only a running event loop can release the lock: a write that blocked it would wait for nothing.
  setTimeout(() => {
    holder.exec("COMMIT");
    lockReleased = true;
  }, 20);

  await store.jobOwners.set("job-1", "alice");

  expect(lockReleased).toBe(true);
  expect(ownerOnDisk("job-1")).toBe("alice");
  expect(existsSync(`${file}.job-owners.jsonl`)).toBe(false);
});

test("a write whose lock outlasts the deadline fails with what happened; reads go on", async () => {
  const clock = movingClock();
  const store = await open({ claim: false, clock, busyDeadlineMs: 5000 });
  holdWriteLock();
  const entry = { meta: { storedAt: 0, expiresAt: 1, kind: "k" }, value: 1 } as never;
  await expect(store.cache.setMany([["key", entry]])).rejects.toThrow(
    /store .*relay\.sqlite stayed locked by another program \(a second relay, a backup or a sqlite3 shell\) for 5 s/,
  );
  // Readers are not held by a writer (WAL): keys are still checked.
  expect(await store.users.byKeyId("nobody")).toBeUndefined();
});

test("an owner whose file stays locked past the deadline goes to the journal on disk and into the table at the next start", async () => {
  const clock = movingClock();
  const store = await open({ claim: false, clock, ownerDeadlineMs: 2000 });
  const holder = holdWriteLock();

  await store.jobOwners.set("job-2", "carol");

  // Answered at once by this instance, and on disk beside the file while the table cannot be written.
  expect(await store.jobOwners.get("job-2")).toBe("carol");
  expect(ownerOnDisk("job-2")).toBeUndefined();
  const journal = readFileSync(`${file}.job-owners.jsonl`, "utf8");
  expect(
    journal
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown),
  ).toEqual([{ jobId: "job-2", user: "carol" }]);

  // The relay stops while the lock is still held (or crashes: the journal is already synced).
  await opened.pop()?.close();
  holder.exec("COMMIT");
  await open();
  expect(ownerOnDisk("job-2")).toBe("carol");
  expect(existsSync(`${file}.job-owners.jsonl`)).toBe(false);
});

test("the journal is moved into the table once the lock is free, while the relay runs", async () => {
  const store = await open({ clock: movingClock(), ownerDeadlineMs: 2000 });
  const holder = holdWriteLock();
  await store.jobOwners.set("job-3", "dmitri");
  expect(existsSync(`${file}.job-owners.jsonl`)).toBe(true);
  holder.exec("COMMIT");
  // The relay tries the journal again each second: wait for it, up to 15 s.
  for (let attempt = 0; attempt < 150 && ownerOnDisk("job-3") === undefined; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(ownerOnDisk("job-3")).toBe("dmitri");
  expect(existsSync(`${file}.job-owners.jsonl`)).toBe(false);
});

test("a second relay on the same file is refused with what to do; users commands still open it", async () => {
  await open();
  await expect(openSqliteStore(file)).rejects.toThrow(
    /Another relay already uses the store .*relay\.sqlite .*each spend the team's whole request budget.*own --store file.*redis:\/\//,
  );
  // `users add` beside the running relay: no claim.
  const admin = await open({ claim: false });
  expect(await admin.users.list()).toEqual([]);
  // Once the first relay stops, the file is free.
  await opened.shift()?.close();
  await expect(open()).resolves.toBeDefined();
});

test("a claim left by a relay that died is taken over: same host with its process gone, another host silent for 30 s", async () => {
  const first = await open();
  await first.close();
  opened.splice(0);
  const exited = spawnSync(process.execPath, ["-e", "0"]);
  const deadPid = exited.pid as number;
  const writeClaim = (host: string, pid: number, heartbeatAt: number) => {
    const db = new Database(file);
    db.prepare(
      "INSERT OR REPLACE INTO relay_claim (slot, id, host, pid, heartbeat_at) VALUES (1, 'gone', ?, ?, ?)",
    ).run(host, pid, heartbeatAt);
    db.close();
  };

  writeClaim(hostname(), deadPid, Date.now());
  await (await open()).close();
  opened.splice(0);

  writeClaim("another-host", 1, Date.now() - 31_000);
  await (await open()).close();
  opened.splice(0);

  writeClaim("another-host", 1, Date.now() - 5_000);
  await expect(openSqliteStore(file)).rejects.toThrow(/pid 1 on another-host, seen 5 s ago/);
});

test("two relays started on one SQLite file: the second does not start", async () => {
  const sandbox = await startTestSandbox();
  const first = await startTestRelay(sandbox, { store: file });
  try {
    await expect(startTestRelay(sandbox, { store: file })).rejects.toThrow(
      /Another relay already uses the store/,
    );
  } finally {
    await first.close();
    await sandbox.close();
  }
});
