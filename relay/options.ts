import type { ServiceConfig } from "../src/api/config";
import type { PacingOptions } from "../src/data/tokenBucket";
import type { UpstreamCredentials } from "./upstream/upstream";

export interface RelayOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The service the relay forwards to ({base_url} and its token endpoint). */
  upstream: ServiceConfig;
  credentials: UpstreamCredentials;
  /** `redis://host:port` for several instances, else the path of the embedded SQLite file. */
  store: string;
  /** The built add-in served at `/` (`npm run build`). */
  distDirectory: string;
  /** The team's budget until the service reports its own limit (the live limit by default). */
  pacing: PacingOptions;
  /** How long a batch of bulk details, markets or forecasts waits for more people's requests. */
  batchWindowMs: number;
  /** Where the structured log goes (stdout by default); `false` for no log. */
  log: false | NodeJS.WritableStream;
  logLevel: string;
  /** The clock that places the status page's figures in windows (tests hold it still). */
  now?: () => number;
  /** The clock of lifetimes: cached answers and download links expire by it (tests move it). */
  clock?: () => number;
}

export const DEFAULT_STORE_FILE = "relay/relay.sqlite";

export function isRedisUrl(store: string): boolean {
  return /^rediss?:\/\//.test(store);
}

/** The add-in's service URL for a relay at `origin`: the relay forwards the service's API at `api/`. */
export function relayServiceUrl(origin: string): string {
  return `${origin.replace(/\/+$/, "")}/api`;
}
