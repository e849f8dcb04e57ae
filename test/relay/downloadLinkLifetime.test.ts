/**
 * A relay download link (the results redirect's `/api/downloads/<id>`) opens for its owner for two minutes
 * (relay/README.md) and is refused after that, by the relay's clock. The bound is written here, not read from
 * the code: a link made to last longer fails this test.
 */
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { startTestRelay, type TestRelay, succeededJob } from "./support/relayHarness";

/** What relay/README.md promises a download link: valid 2 minutes. */
const PROMISED_LIFETIME_MS = 2 * 60_000;

let sandbox: RunningSandbox;
let relay: TestRelay;
let key: string;
let clockMs = Date.parse("2026-11-25T12:00:00Z");

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000 });
  relay = await startTestRelay(sandbox, { clock: () => clockMs });
  key = await relay.addUser("exporter", [100]);
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

const jobOf = () => succeededJob(relay, sandbox, key);

test("a download link opens within its two minutes and is refused after them", async () => {
  const jobId = await jobOf();
  const results = await fetch(`${relay.url}/api/v1/bulk_api/jobs/${jobId}/results`, {
    headers: { Authorization: `Bearer ${key}` },
    redirect: "manual",
  });
  expect(results.status).toBe(302);
  const link = new URL(results.headers.get("location") as string, results.url).href;
  const open = async () => {
    const answer = await fetch(link, { headers: { Authorization: `Bearer ${key}` } });
    await answer.arrayBuffer();
    return answer.status;
  };

  clockMs += PROMISED_LIFETIME_MS - 5000;
  expect(await open()).toBe(200);
  clockMs += 10_000;
  expect(await open()).toBe(404);
});
