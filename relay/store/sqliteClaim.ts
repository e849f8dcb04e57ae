import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import path from "node:path";
import type { SqliteStatements } from "./sqliteStore";

/** A relay renews its claim this often; a claim not renewed for STALE_AFTER_MS belongs to a relay that died. */
const HEARTBEAT_MS = 10_000;
const STALE_AFTER_MS = 3 * HEARTBEAT_MS;

const CLAIM_TABLE = `CREATE TABLE IF NOT EXISTS relay_claim (
  slot INTEGER PRIMARY KEY CHECK (slot = 1), id TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL)`;

interface ClaimRow {
  id: string;
  host: string;
  pid: number;
  heartbeat_at: number;
}

export interface FileClaim {
  release(): Promise<void>;
}

/** Files claimed by relays of this process (two relays in one process share a pid, so the row cannot tell). */
const claimedHere = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Why `holder` still holds the file, or undefined when its relay is gone. */
function stillHeld(holder: ClaimRow, file: string, nowMs: number): string | undefined {
  const seen = `pid ${holder.pid} on ${holder.host}, seen ${Math.max(0, Math.round((nowMs - holder.heartbeat_at) / 1000))} s ago`;
  if (claimedHere.has(file)) return "another relay of this process";
  if (holder.host === hostname()) {
    // Our own pid with no claim of this process: a container restarted (its relay is always the same pid).
    if (holder.pid === process.pid) return undefined;
    return processAlive(holder.pid) ? seen : undefined;
  }
  return nowMs - holder.heartbeat_at < STALE_AFTER_MS ? seen : undefined;
}

/**
 * Claims the SQLite file for this relay, or refuses with a message that says what to do: two relays on
 * one file would each spend the team's whole budget (the budget lives in each process) and step on each
 * other's locks. The claim is a row renewed every 10 s and removed on close; a row left by a relay that
 * crashed is taken over (same host: its process is gone; another host: not renewed for 30 s).
 */
export async function claimSqliteFile(sql: SqliteStatements, file: string): Promise<FileClaim> {
  const resolved = path.resolve(file);
  const id = randomUUID();
  await sql.run((db) => {
    db.exec(CLAIM_TABLE);
    db.transaction(() => {
      const holder = db
        .prepare("SELECT id, host, pid, heartbeat_at FROM relay_claim WHERE slot = 1")
        .get() as ClaimRow | undefined;
      const nowMs = Date.now();
      const reason = holder && stillHeld(holder, resolved, nowMs);
      if (reason) {
        throw new Error(
          `Another relay already uses the store ${file} (${reason}). Two relays on one SQLite file would each spend the team's whole request budget. Stop the other relay, give this one its own --store file, or run every relay on Redis (--store redis://HOST:PORT).`,
        );
      }
      db.prepare(
        "INSERT OR REPLACE INTO relay_claim (slot, id, host, pid, heartbeat_at) VALUES (1, ?, ?, ?, ?)",
      ).run(id, hostname(), process.pid, nowMs);
    }).immediate();
  });
  claimedHere.add(resolved);
  const heartbeat = setInterval(() => {
    sql
      .run((db) => db.prepare("UPDATE relay_claim SET heartbeat_at = ? WHERE id = ?").run(Date.now(), id))
      .catch(() => undefined); // a lock held past the deadline: the next beat tries again
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    release: async () => {
      clearInterval(heartbeat);
      claimedHere.delete(resolved);
      // A file still locked at shutdown keeps the row; the next start sees its process is gone.
      await sql
        .run((db) => db.prepare("DELETE FROM relay_claim WHERE id = ?").run(id))
        .catch(() => undefined);
    },
  };
}
