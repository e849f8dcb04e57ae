/**
 * The relay decides on a request's key and length before it reads a byte of its body: a body without a valid
 * key, or longer than the limit, is refused while the client has sent only the headers, and a client asking
 * `Expect: 100-continue` hears Continue only with a good key.
 */
import type { RunningSandbox } from "../../sandbox/server";
import { BODY_LIMIT_BYTES } from "../../relay/requestGuards";
import { RawClient, statusCodes } from "./support/rawHttp";
import { startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

/** How long a test waits for an answer that must come without the body: the relay never needs it. */
const ANSWER_BOUND_MS = 5000;
const NEARLY_FIVE_MB = 4_800_000;

let sandbox: RunningSandbox;
let relay: TestRelay;
let key: string;
const clients: RawClient[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  relay = await startTestRelay(sandbox);
  key = await relay.addUser("analyst-berit", [100]);
});

afterAll(async () => {
  for (const client of clients) client.close();
  await relay?.close();
  await sandbox?.close();
});

async function open(): Promise<RawClient> {
  const client = await RawClient.open(relay.url);
  clients.push(client);
  return client;
}

const head = (lines: string[]) => `${lines.join("\r\n")}\r\n\r\n`;
const answered = (text: string) => /\r\n\r\n/.test(text) && statusCodes(text).some((code) => code >= 200);

test("a keyless POST announcing a 4.8 MB body is refused (401) before a byte of the body is sent", async () => {
  const client = await open();
  client.write(
    head([
      "POST /api/v1/explore_markets?account_id=100 HTTP/1.1",
      "Host: relay",
      "Content-Type: application/json",
      `Content-Length: ${NEARLY_FIVE_MB}`,
    ]),
  );
  expect(await client.until(answered, ANSWER_BOUND_MS)).toBe(true);
  expect(statusCodes(client.text)).toEqual([401]);
  expect(client.text).toMatch(/personal key/);
  // The connection closes: the body the client would still send is never read.
  expect(await client.until(() => false, ANSWER_BOUND_MS).then(() => client.isClosed)).toBe(true);
});

test("a POST with a key the relay never issued is refused the same way, and so is a keyless chunked body", async () => {
  const unknown = await open();
  unknown.write(
    head([
      "POST /api/v1/explore_markets?account_id=100 HTTP/1.1",
      "Host: relay",
      `Authorization: Bearer rmr_0123456789abcdef_${"A".repeat(43)}`,
      "Content-Type: application/json",
      `Content-Length: ${NEARLY_FIVE_MB}`,
    ]),
  );
  expect(await unknown.until(answered, ANSWER_BOUND_MS)).toBe(true);
  expect(statusCodes(unknown.text)).toEqual([401]);
  expect(unknown.text).toMatch(/does not accept this personal key/);

  const chunked = await open();
  chunked.write(
    head([
      "POST /api/downloads/links HTTP/1.1",
      "Host: relay",
      "Content-Type: application/json",
      "Transfer-Encoding: chunked",
    ]),
  );
  expect(await chunked.until(answered, ANSWER_BOUND_MS)).toBe(true);
  expect(statusCodes(chunked.text)).toEqual([401]);
});

test("a body on a path the relay does not serve is refused without its body too", async () => {
  const client = await open();
  client.write(head(["POST /no-such-page HTTP/1.1", "Host: relay", `Content-Length: ${NEARLY_FIVE_MB}`]));
  expect(await client.until(answered, ANSWER_BOUND_MS)).toBe(true);
  expect(statusCodes(client.text)).toEqual([401]);
});

test("a keyless Expect: 100-continue gets 401 and never 100 Continue", async () => {
  const client = await open();
  client.write(
    head([
      "POST /api/v1/explore_markets?account_id=100 HTTP/1.1",
      "Host: relay",
      "Content-Type: application/json",
      `Content-Length: ${NEARLY_FIVE_MB}`,
      "Expect: 100-continue",
    ]),
  );
  expect(await client.until(answered, ANSWER_BOUND_MS)).toBe(true);
  expect(statusCodes(client.text)).toEqual([401]);
});

test("with a good key, Expect: 100-continue hears Continue, and the body sent after it is read and answered", async () => {
  const client = await open();
  const body = JSON.stringify({ job_id: "not-a-job-id" });
  client.write(
    head([
      "POST /api/downloads/links HTTP/1.1",
      "Host: relay",
      `Authorization: Bearer ${key}`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Expect: 100-continue",
    ]),
  );
  expect(await client.until((text) => statusCodes(text).includes(100), ANSWER_BOUND_MS)).toBe(true);
  client.write(body);
  expect(await client.until(answered, ANSWER_BOUND_MS)).toBe(true);
  // The relay read the body: it names what is wrong with the job id in it.
  expect(statusCodes(client.text)).toEqual([100, 400]);
  expect(client.text).toMatch(/job_id/);
});

test("with a good key, a body one byte over the limit is refused (413) before it is sent; at the limit it is read", async () => {
  const over = await open();
  over.write(
    head([
      "POST /api/downloads/links HTTP/1.1",
      "Host: relay",
      `Authorization: Bearer ${key}`,
      "Content-Type: application/json",
      `Content-Length: ${BODY_LIMIT_BYTES + 1}`,
      "Expect: 100-continue",
    ]),
  );
  expect(await over.until(answered, ANSWER_BOUND_MS)).toBe(true);
  expect(statusCodes(over.text)).toEqual([413]);
  expect(over.text).toMatch(new RegExp(`at most ${BODY_LIMIT_BYTES}`));

  const atLimit = await open();
  atLimit.write(
    head([
      "POST /api/downloads/links HTTP/1.1",
      "Host: relay",
      `Authorization: Bearer ${key}`,
      "Content-Type: application/json",
      `Content-Length: ${BODY_LIMIT_BYTES}`,
      "Expect: 100-continue",
    ]),
  );
  expect(await atLimit.until((text) => statusCodes(text).includes(100), ANSWER_BOUND_MS)).toBe(true);
});
