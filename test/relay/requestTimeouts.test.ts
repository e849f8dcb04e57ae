/**
 * A client that trickles its request in is cut off: headers that do not end within the headers timeout,
 * or a body that does not end within the request timeout, close the connection (Node's 408), so slow
 * clients cannot hold the relay's sockets and memory. The timeouts are the relay's options, short here.
 */
import type { RunningSandbox } from "../../sandbox/server";
import { RawClient, statusCodes } from "./support/rawHttp";
import { startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

const TIMEOUTS = { headersMs: 400, requestMs: 800, connectionMs: 5000 };
/** Far past the timeouts (and Node's check of them): a connection still open then was never cut off. */
const CUT_OFF_BOUND_MS = 8000;
const TRICKLE_MS = 50;

let sandbox: RunningSandbox;
let relay: TestRelay;
let key: string;
const clients: RawClient[] = [];
const trickles: NodeJS.Timeout[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  relay = await startTestRelay(sandbox, { timeouts: TIMEOUTS });
  key = await relay.addUser("analyst-oskar", [100]);
});

afterAll(async () => {
  for (const trickle of trickles) clearInterval(trickle);
  for (const client of clients) client.close();
  await relay?.close();
  await sandbox?.close();
});

/** A client writing `start`, then `drip` every few milliseconds for as long as the connection stays open. */
async function trickle(start: string, drip: string): Promise<RawClient> {
  const client = await RawClient.open(relay.url);
  clients.push(client);
  client.write(start);
  trickles.push(setInterval(() => client.write(drip), TRICKLE_MS));
  return client;
}

test("an anonymous client whose headers never end is cut off", async () => {
  const client = await trickle("GET /healthz HTTP/1.1\r\nHost: relay\r\n", "X-Slow: a\r\n");
  expect(await client.until(() => false, CUT_OFF_BOUND_MS).then(() => client.isClosed)).toBe(true);
  expect(statusCodes(client.text)).toEqual([408]);
});

test("a person whose body never ends is cut off, though every byte came in time", async () => {
  const head = [
    "POST /api/downloads/links HTTP/1.1",
    "Host: relay",
    `Authorization: Bearer ${key}`,
    "Content-Type: application/json",
    "Content-Length: 100000",
  ].join("\r\n");
  const client = await trickle(`${head}\r\n\r\n{"job_id":"`, "a");
  expect(await client.until(() => false, CUT_OFF_BOUND_MS).then(() => client.isClosed)).toBe(true);
  expect(statusCodes(client.text)).toEqual([408]);
});

test("a request that arrives in time is answered", async () => {
  const answer = await relay.api(key, "/v1/accounts");
  expect(answer.status).toBe(200);
});
