/**
 * Memory a relay spends on request bodies sent without a key (issue 32, finding 2): 24 clients each announce
 * and send a 4.8 MB body with no Authorization header, at once. The relay and the sandbox run in this process,
 * the clients share one body buffer; the figure is this process's peak RSS over its RSS before, sampled every
 * 20 ms. A relay that checks the key first refuses each request at its headers and never buffers a body.
 *
 *   npx tsx test/bench/relayKeylessBodies.bench.ts
 */
import { connect } from "node:net";
import { startTestRelay, startTestSandbox } from "../relay/support/relayHarness";

const CLIENTS = 24;
const BODY = Buffer.alloc(4_800_000, 0x20);

/** One keyless POST with the whole body, until the relay closes the connection (or 20 s pass). */
function sendKeyless(origin: string): Promise<void> {
  const url = new URL(origin);
  return new Promise<void>((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /api/v1/explore_markets?account_id=100 HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`,
      );
      socket.write(BODY);
    });
    const timer = setTimeout(() => socket.destroy(), 20_000);
    socket.on("data", () => undefined);
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function main(): Promise<void> {
  const sandbox = await startTestSandbox();
  const relay = await startTestRelay(sandbox);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  await Promise.all(Array.from({ length: CLIENTS }, () => sendKeyless(relay.url)));
  clearInterval(sampler);
  const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
  console.log(
    `${CLIENTS} keyless ${BODY.length / 1e6} MB bodies: RSS ${mb(before)} MB before, peak ${mb(peak)} MB (+${mb(peak - before)} MB)`,
  );
  await relay.close();
  await sandbox.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
