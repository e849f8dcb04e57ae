import { parseArgs } from "node:util";
import { parsePostingTime } from "../../src/data/freshnessSchedule";
import { DEFAULT_OPS_HOST } from "../options";

export const USAGE = `Usage:
  npm run relay -- --service-url URL [options]    start the relay in front of the service
  npm run relay:demo [-- options]                 start it in front of a local sandbox, with demo keys
  npm run relay -- users add NAME --accounts 100,102 [--admin]
                                                  create a personal key (printed once) for NAME
  npm run relay -- users revoke NAME              revoke every key of NAME at once
  npm run relay -- users list                     names, accounts and admin flags (never keys)

Options:
  --store PATH|redis://HOST:PORT   where users, cache and counters live (default $RELAY_STORE, else
                                   relay/relay.sqlite); one relay per SQLite file, several on one Redis
  --port N                         port to listen on (default $RELAY_PORT, else 8080; 0 picks a free one)
  --host HOST                      interface (default 127.0.0.1; put TLS termination in front)
  --ops-port N                     port of /healthz, /readyz and /metrics for the people who run the relay
                                   (default $RELAY_OPS_PORT, else 9090); never the public port
  --ops-host HOST                  its interface (default $RELAY_OPS_HOST, else 127.0.0.1)
  --dist DIR                       the built add-in to serve (default dist)
  --service-url URL                the service's {base_url}, e.g. https://data.apartmentiq.io/apartmentiq/api
  --token-url URL                  its token endpoint (default {origin of service-url}/oauth/token)
  --download-origin URL            an origin of the service's signed export download URLs, e.g.
                                   https://exports.example-storage.com (repeat it, or $RELAY_DOWNLOAD_ORIGINS
                                   separated by commas); the relay fetches export files from no other host
  --posting-time HH:MM             when the service posts each day's data, US Eastern (default
                                   $RELAY_POSTING_TIME, else 07:00): cached answers serve until the next one

With --service-url the relay reads its client id from RELAY_CLIENT_ID and its secret from RELAY_CLIENT_SECRET
or from the file named by RELAY_CLIENT_SECRET_FILE.`;

export type RelayCommand =
  | { kind: "help" }
  | {
      kind: "start";
      store: string;
      port: number;
      host: string;
      opsPort: number;
      opsHost: string;
      dist: string;
      serviceUrl?: string;
      tokenUrl?: string;
      downloadOrigins: string[];
      postingTime?: string;
    }
  | { kind: "users-add"; store: string; name: string; accounts: number[]; admin: boolean }
  | { kind: "users-revoke"; store: string; name: string }
  | { kind: "users-list"; store: string };

function accountList(text: string | undefined): number[] {
  if (text === undefined) throw new Error("users add needs --accounts, e.g. --accounts 100,102");
  const ids = text.split(",").map((part) => part.trim());
  if (ids.some((id) => !/^\d+$/.test(id)))
    throw new Error(`--accounts takes account ids separated by commas, got "${text}"`);
  return ids.map(Number);
}

/** Defaults the environment gives (the container sets them, and its health check reads the same ones). */
export interface ListenerDefaults {
  /** Download origins separated by commas. */
  downloadOrigins?: string;
  port?: string;
  opsPort?: string;
  opsHost?: string;
}

function portNumber(option: string, text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new Error(`${option} must be a port number, got "${text}"`);
  return port;
}

/** Each download origin as an origin (scheme, host, port), refused when it is not an https or http URL. */
function downloadOrigins(texts: string[]): string[] {
  return texts
    .map((text) => text.trim())
    .filter((text) => text !== "")
    .map((text) => {
      let url: URL | undefined;
      try {
        url = new URL(text);
      } catch {
        url = undefined;
      }
      if (!url || !/^https?:$/.test(url.protocol))
        throw new Error(`--download-origin takes an origin such as https://host, got "${text}"`);
      return url.origin;
    });
}

export function parseRelayArguments(
  argv: string[],
  defaultStore: string,
  defaultPostingTime?: string,
  listeners: ListenerDefaults = {},
): RelayCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: "boolean" },
      store: { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      "ops-port": { type: "string" },
      "ops-host": { type: "string" },
      dist: { type: "string" },
      "service-url": { type: "string" },
      "token-url": { type: "string" },
      "download-origin": { type: "string", multiple: true },
      "posting-time": { type: "string" },
      accounts: { type: "string" },
      admin: { type: "boolean" },
    },
  });
  if (values.help) return { kind: "help" };
  const store = values.store ?? defaultStore;
  const [first, action, name, ...rest] = positionals;
  if (first === undefined) {
    const port = portNumber("--port", values.port ?? listeners.port ?? "8080");
    const opsPort = portNumber("--ops-port", values["ops-port"] ?? listeners.opsPort ?? "9090");
    const postingTime = values["posting-time"] ?? defaultPostingTime;
    if (postingTime !== undefined) parsePostingTime(postingTime);
    return {
      kind: "start",
      store,
      port,
      host: values.host ?? "127.0.0.1",
      opsPort,
      opsHost: values["ops-host"] ?? listeners.opsHost ?? DEFAULT_OPS_HOST,
      dist: values.dist ?? "dist",
      serviceUrl: values["service-url"],
      tokenUrl: values["token-url"],
      downloadOrigins: downloadOrigins(
        values["download-origin"] ?? listeners.downloadOrigins?.split(",") ?? [],
      ),
      ...(postingTime === undefined ? {} : { postingTime }),
    };
  }
  if (first !== "users" || rest.length > 0) throw new Error(`Unknown command "${positionals.join(" ")}"`);
  if (action === "list" && name === undefined) return { kind: "users-list", store };
  if (!name || !/^[\w.@-]{1,64}$/.test(name)) throw new Error("Give a user NAME (letters, digits, . _ @ -).");
  if (action === "add")
    return {
      kind: "users-add",
      store,
      name,
      accounts: accountList(values.accounts),
      admin: values.admin ?? false,
    };
  if (action === "revoke") return { kind: "users-revoke", store, name };
  throw new Error(`Unknown users command "${action ?? ""}": use add, revoke or list.`);
}
