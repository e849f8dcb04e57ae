import { isRedisUrl } from "../options";
import type { RelayStore } from "./relayStore";
import { openRedisStore } from "./redisStore";
import { openSqliteStore } from "./sqliteStore";

export interface OpenStoreOptions {
  warn: (message: string) => void;
  /**
   * True for a relay serving requests: it claims a SQLite file for itself (a second relay on it is
   * refused). False for `users` commands, which may run beside the relay. Redis is shared by design.
   */
  claim: boolean;
  /** The clock of download links' lifetimes (tests move it). */
  now?: () => number;
}

/** The store named by `--store`: Redis for `redis://` and `rediss://` URLs, else a SQLite file. */
export function openRelayStore(store: string, options: OpenStoreOptions): Promise<RelayStore> {
  return isRedisUrl(store)
    ? openRedisStore({ url: store, warn: options.warn })
    : openSqliteStore(store, { claim: options.claim, now: options.now });
}
