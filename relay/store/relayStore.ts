import type { PersistentStore } from "../../src/data/persistentStore";

/** A person allowed to use the relay: what their personal key unlocks. The key itself is never stored. */
export interface UserRecord {
  /** Public part of the key: how the record is found without scanning. */
  keyId: string;
  name: string;
  /**
   * The person, across their keys: a name issued again after `users revoke` gets a new one, so the next
   * holder of a name inherits none of the last one's jobs or links. Records made before it have none; their
   * id is their name (relay/users/personalKeys.ts, ownerIdOf).
   */
  userId?: string;
  /** Hex salt and hex SHA-256 of salt + secret part of the key. */
  salt: string;
  hash: string;
  accounts: number[];
  admin: boolean;
  createdAt: string;
}

export interface UserRecords {
  byKeyId(keyId: string): Promise<UserRecord | undefined>;
  put(record: UserRecord): Promise<void>;
  /** Removes every key of `name`; answers how many there were. */
  removeByName(name: string): Promise<number>;
  list(): Promise<UserRecord[]>;
}

/** Which relay user submitted an export job (the upstream client is shared, so the service cannot tell). */
export interface JobOwners {
  /**
   * Records the owner of a job the service has just created. Call it before answering the person. It
   * resolves once the owner is kept durably (SQLite: in the file, or in its owners journal when the file
   * stays locked; Redis: in Redis, or queued and retried at this instance while Redis is away) and this
   * instance answers `get` for the job at once. It rejects only when nothing could keep it (e.g. a full
   * disk): then the job exists at the service without a recorded owner, and the error says so.
   */
  set(jobId: string, user: string): Promise<void>;
  get(jobId: string): Promise<string | undefined>;
}

/** Short-lived links of the relay to a job's signed download URL, so the page needs no other origin. */
export interface DownloadLinks {
  put(id: string, url: string, ttlMs: number): Promise<void>;
  get(id: string): Promise<string | undefined>;
  /**
   * The link's URL, removed in the same step, so that of several instances asking at once only one gets it:
   * undefined when it expired, was taken already or never was.
   */
  take(id: string): Promise<string | undefined>;
}

/** A response of the service, as kept for other instances waiting on the same request. */
export interface SharedResponse {
  status: number;
  headers: Record<string, string>;
  /** Base64 of the body. */
  body: string;
}

/** Single-flight across instances: one instance claims a request, the others wait for its answer. */
export interface Flights {
  /** True when this caller is the one to send the request; the claim lapses after `ttlMs`. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  finish(key: string, response: SharedResponse | undefined): Promise<void>;
  /** The claimant's answer, or undefined when it gave up (or the claim lapsed) before answering. */
  waitFor(key: string, timeoutMs: number): Promise<SharedResponse | undefined>;
}

/** The team's upstream request budget: one token bucket and one pause for every instance. */
export interface Budget {
  /** Takes a request from the bucket (0) or says how many ms until one is available. */
  take(limit: number, windowMs: number, burst: number): Promise<number>;
  /** The service said wait: nobody sends before `untilMs`. */
  pauseUntil(untilMs: number): Promise<void>;
  pausedUntil(): Promise<number>;
}

/** Counters shown on the status page, per window or in total. */
export interface Counters {
  add(group: string, field: string, amount: number, ttlMs?: number): Promise<void>;
  read(group: string): Promise<Record<string, number>>;
}

/** Everything the relay keeps: in one SQLite file for one instance, or in Redis shared by several. */
export interface RelayStore {
  readonly description: string;
  readonly users: UserRecords;
  readonly cache: PersistentStore;
  readonly jobOwners: JobOwners;
  readonly downloads: DownloadLinks;
  readonly flights: Flights;
  readonly budget: Budget;
  readonly counters: Counters;
  /** Resolves when the store answers (readiness); rejects with the reason, which names no secret. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
