import type { ServiceConfig } from "../src/api/config";
import type { PacingOptions } from "../src/data/tokenBucket";
import type { RequestTimeouts } from "./requestGuards";
import type { RelayClock } from "./upstream/relayClock";
import type { UpstreamCredentials } from "./upstream/upstream";

export interface RelayOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Interface of the ops listener (/healthz, /readyz, /metrics); 127.0.0.1 unless given. */
  opsHost?: string;
  /** Port of the ops listener; 0 (a free one) unless given. */
  opsPort?: number;
  /** The service the relay forwards to ({base_url} and its token endpoint). */
  upstream: ServiceConfig;
  credentials: UpstreamCredentials;
  /**
   * The origins (`https://host[:port]`) of the service's pre-signed download URLs: the only hosts the relay
   * fetches export files from. A results redirect anywhere else is refused with a 502 naming its origin.
   */
  downloadOrigins: readonly string[];
  /** `redis://host:port` for several instances, else the path of the embedded SQLite file. */
  store: string;
  /** The built add-in served at `/` (`npm run build`). */
  distDirectory: string;
  /** The team's budget until the service reports its own limit (the live limit by default). */
  pacing: PacingOptions;
  /** How long a batch of bulk details, markets or forecasts waits for more people's requests. */
  batchWindowMs: number;
  /**
   * When the service posts each day's data, "HH:MM" US Eastern: cached answers are served until the next posting
   * (07:00 by default, `--posting-time` or RELAY_POSTING_TIME when the vendor moves it).
   */
  postingTime?: string;
  /** Where the structured log goes (stdout by default); `false` for no log. */
  log: false | NodeJS.WritableStream;
  logLevel: string;
  /** The clock that places the status page's figures in windows (tests hold it still). */
  now?: () => number;
  /**
   * The clock of the budget, pauses, upstream deadlines and lifetimes (cached answers, download links): tests
   * move it instead of waiting; real time by default.
   */
  clock?: RelayClock;
  /** Longest an upstream call may take once let out, headers and body (a 504 past it). */
  upstreamDeadlineMs?: number;
  /** Requests one person may have waiting at the team gate; past it they get a 429 at once. */
  maxQueuedPerPerson?: number;
  /** How long a client may take over a request's headers and body, and a socket may idle (requestGuards.ts). */
  timeouts?: Partial<RequestTimeouts>;
}

export const DEFAULT_STORE_FILE = "relay/relay.sqlite";

/** The ops listener answers on this machine only unless told otherwise (in a container: see relay/README.md). */
export const DEFAULT_OPS_HOST = "127.0.0.1";

export function isRedisUrl(store: string): boolean {
  return /^rediss?:\/\//.test(store);
}

/**
 * The Redis URL with the password of RELAY_STORE_PASSWORD_FILE (compose hands it in as a secret, so it is in no
 * environment variable or log). A URL that names a password already, or a SQLite path, is left as it is.
 */
export function withStorePassword(store: string, password: string | undefined): string {
  if (!password || !isRedisUrl(store)) return store;
  const url = new URL(store);
  if (url.password !== "") return store;
  url.password = encodeURIComponent(password);
  return url.href;
}

/** The add-in's service URL for a relay at `origin`: the relay forwards the service's API at `api/`. */
export function relayServiceUrl(origin: string): string {
  return `${origin.replace(/\/+$/, "")}/api`;
}
