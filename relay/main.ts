import { readFileSync } from "node:fs";
import { defaultTokenUrl, normaliseConfig } from "../src/api/config";
import { LIVE_PACING } from "../src/data/tokenBucket";
import { USAGE, parseRelayArguments, type RelayCommand } from "./cli/relayArguments";
import { DEFAULT_STORE_FILE, withStorePassword } from "./options";
import { startRelay } from "./server";
import { openRelayStore } from "./store/openStore";
import { stopOnSignals } from "./stopOnSignals";
import type { UpstreamCredentials } from "./upstream/upstream";
import { addUser, describeUsers, revokeUser } from "./users/userAdmin";

function credentialsFromEnvironment(): UpstreamCredentials {
  const clientId = process.env.RELAY_CLIENT_ID;
  const secretFile = process.env.RELAY_CLIENT_SECRET_FILE;
  const clientSecret = secretFile ? readFileSync(secretFile, "utf8").trim() : process.env.RELAY_CLIENT_SECRET;
  if (!clientId || !clientSecret) {
    throw new Error(
      "Set RELAY_CLIENT_ID and RELAY_CLIENT_SECRET (or RELAY_CLIENT_SECRET_FILE) for the service.",
    );
  }
  return { clientId, clientSecret };
}

/** The store's password from the file RELAY_STORE_PASSWORD_FILE names (a compose secret), if it names one. */
function storePasswordFromFile(): string | undefined {
  const file = process.env.RELAY_STORE_PASSWORD_FILE;
  return file ? readFileSync(file, "utf8").trim() : undefined;
}

async function usersCommand(command: Exclude<RelayCommand, { kind: "help" | "start" }>): Promise<void> {
  // No claim: users are managed beside a running relay, on the same store.
  const store = await openRelayStore(command.store, {
    warn: (message) => console.warn(message),
    claim: false,
  });
  try {
    if (command.kind === "users-add") {
      const key = await addUser(store.users, command.name, command.accounts, command.admin);
      console.log(`Personal key of ${command.name} (shown once; the relay keeps only its hash):\n${key}`);
    } else if (command.kind === "users-revoke") {
      const removed = await revokeUser(store.users, command.name);
      console.log(
        removed > 0 ? `Revoked ${removed} key(s) of ${command.name}.` : `No keys of ${command.name}.`,
      );
    } else {
      for (const line of await describeUsers(store.users)) console.log(line);
    }
  } finally {
    await store.close();
  }
}

async function start(command: Extract<RelayCommand, { kind: "start" }>): Promise<void> {
  if (!command.serviceUrl)
    throw new Error(
      "Give the service's --service-url (and RELAY_CLIENT_ID and its secret). To try the relay out against a local sandbox, run `npm run relay:demo`.",
    );
  const upstream = normaliseConfig({
    serviceUrl: command.serviceUrl,
    tokenUrl: command.tokenUrl ?? defaultTokenUrl(command.serviceUrl),
  });
  const relay = await startRelay({
    host: command.host,
    port: command.port,
    opsHost: command.opsHost,
    opsPort: command.opsPort,
    upstream,
    credentials: credentialsFromEnvironment(),
    downloadOrigins: command.downloadOrigins,
    store: command.store,
    distDirectory: command.dist,
    pacing: LIVE_PACING,
    batchWindowMs: 25,
    postingTime: command.postingTime,
    log: process.stdout,
    logLevel: "info",
  });
  console.log(`relay: ${relay.url}  (add-in at /taskpane.html, API at /api/v1, status page at /relay/)`);
  console.log(`ops: ${relay.opsUrl}  (/healthz, /readyz, /metrics)`);
  console.log(`store: ${relay.store.description}`);
  stopOnSignals(() => relay.close());
}

/** `npm run relay`: starts the relay, or manages its users. */
async function main(): Promise<void> {
  let command: RelayCommand;
  try {
    // RELAY_STORE names the store once for the server and the `users` commands (the container sets it).
    command = parseRelayArguments(
      process.argv.slice(2),
      withStorePassword(process.env.RELAY_STORE || DEFAULT_STORE_FILE, storePasswordFromFile()),
      process.env.RELAY_POSTING_TIME || undefined,
      {
        port: process.env.RELAY_PORT || undefined,
        downloadOrigins: process.env.RELAY_DOWNLOAD_ORIGINS || undefined,
        opsPort: process.env.RELAY_OPS_PORT || undefined,
        opsHost: process.env.RELAY_OPS_HOST || undefined,
      },
    );
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (command.kind === "help") console.log(USAGE);
  else if (command.kind === "start") await start(command);
  else await usersCommand(command);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
