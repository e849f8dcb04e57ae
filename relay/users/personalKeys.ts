import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { UserRecord, UserRecords } from "../store/relayStore";

const KEY_PREFIX = "rmr";

export interface IssuedKey {
  /** The whole key, shown once to the person it is for. */
  key: string;
  record: UserRecord;
}

/**
 * A salted SHA-256 is enough here: the secret part is 32 random bytes, so there is nothing to guess, and
 * every request checks a key (a slow password hash would cost milliseconds on each).
 */
function digest(salt: string, secret: string): string {
  return createHash("sha256").update(salt).update(secret).digest("hex");
}

function parseKey(key: string): { keyId: string; secret: string } | undefined {
  const match = /^rmr_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/.exec(key);
  return match ? { keyId: match[1] as string, secret: match[2] as string } : undefined;
}

/** A new person's id. ":" is in no name (`users add` refuses it), so no id equals an older record's name. */
export const newUserId = (): string => `user:${randomBytes(12).toString("hex")}`;

/** Whom a job or a download link belongs to: the person's stable id, not their (re-issuable) name. */
export const ownerIdOf = (user: UserRecord): string => user.userId ?? user.name;

export function issueKey(
  name: string,
  accounts: number[],
  admin: boolean,
  now = new Date(),
  userId: string = newUserId(),
): IssuedKey {
  const keyId = randomBytes(8).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  const salt = randomBytes(16).toString("hex");
  return {
    key: `${KEY_PREFIX}_${keyId}_${secret}`,
    record: {
      keyId,
      name,
      userId,
      salt,
      hash: digest(salt, secret),
      accounts,
      admin,
      createdAt: now.toISOString(),
    },
  };
}

/** The user a key belongs to, or undefined for a malformed, unknown or revoked key. */
export async function userOfKey(users: UserRecords, key: string): Promise<UserRecord | undefined> {
  const parsed = parseKey(key);
  if (!parsed) return undefined;
  const record = await users.byKeyId(parsed.keyId);
  if (!record) return undefined;
  const expected = Buffer.from(record.hash, "hex");
  const actual = Buffer.from(digest(record.salt, parsed.secret), "hex");
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? record : undefined;
}
