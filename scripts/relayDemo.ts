/**
 * `npm run relay:demo`: the team relay in front of a local sandbox, to try it out. The relay signs in to the
 * sandbox as `demo-proplus`, and prints an admin key and a demo user key (accounts 100 and 103); the keys of an
 * earlier run are replaced. The relay's own entry (`npm run relay`) never starts a sandbox.
 */
import { DEMO_CLIENTS } from "../sandbox/data/clients";
import { startSandbox } from "../sandbox/server";
import { parseRelayArguments } from "../relay/cli/relayArguments";
import { DEFAULT_STORE_FILE } from "../relay/options";
import { startRelay } from "../relay/server";
import { stopOnSignals } from "../relay/stopOnSignals";
import { addUser, revokeUser } from "../relay/users/userAdmin";
import { LIVE_PACING } from "../src/data/tokenBucket";

const DEMO_CLIENT_ID = "demo-proplus";

async function main(): Promise<void> {
  const command = parseRelayArguments(process.argv.slice(2), DEFAULT_STORE_FILE);
  if (command.kind !== "start")
    throw new Error("relay:demo takes the start options only (--port, --store, --dist).");
  const sandbox = await startSandbox({ port: 0 });
  const demo = DEMO_CLIENTS.find((client) => client.clientId === DEMO_CLIENT_ID);
  console.log(`sandbox (upstream, as ${DEMO_CLIENT_ID}): ${sandbox.url}`);
  const relay = await startRelay({
    host: command.host,
    port: command.port,
    upstream: { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
    credentials: { clientId: DEMO_CLIENT_ID, clientSecret: demo?.clientSecret ?? "" },
    downloadOrigins: [sandbox.downloadUrl],
    store: command.store,
    distDirectory: command.dist,
    pacing: LIVE_PACING,
    batchWindowMs: 25,
    log: process.stdout,
    logLevel: "info",
  });
  console.log(`relay: ${relay.url}  (add-in at /taskpane.html, API at /api/v1, status page at /relay/)`);
  console.log(`store: ${relay.store.description}`);
  await revokeUser(relay.store.users, "admin");
  await revokeUser(relay.store.users, "demo");
  console.log(`admin key (status page): ${await addUser(relay.store.users, "admin", [], true)}`);
  console.log(
    `demo user key (accounts 100, 103; "Team relay" sign-in in the pane): ${await addUser(relay.store.users, "demo", [100, 103], false)}`,
  );
  stopOnSignals(async () => {
    await relay.close();
    await sandbox.close();
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
