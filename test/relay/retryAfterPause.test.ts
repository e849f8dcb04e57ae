/**
 * A 429 carrying `Retry-After: N` (seconds) pauses the whole team for N seconds, by the relay's clock: a
 * colleague's request that comes meanwhile waits at the gate and leaves when the N seconds are over, not before
 * and not later. The service stands in as a tiny server whose first answer is that 429 (the sandbox's own 429
 * names a wait of its rate limiter's choosing); sign-in stays the sandbox's.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { until } from "./support/movingClock";
import { startLiveBudgetRelay, type LiveBudgetRelay } from "./support/liveBudgetRelay";

/** The wait the 429 names: shorter than a request sits out at the gate (30 s), so the colleague waits. */
const RETRY_AFTER_SECONDS = 20;

let sandbox: RunningSandbox;
let service: FastifyInstance;
let relay: LiveBudgetRelay;
/** Lookups that reached the stand-in. */
let lookups = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000 });
  service = Fastify();
  service.get("/v1/properties/lookup", async (_, reply) => {
    lookups += 1;
    if (lookups === 1)
      return reply
        .code(429)
        .header("Retry-After", String(RETRY_AFTER_SECONDS))
        .type("text/plain; charset=utf-8")
        .send("You have exceeded the rate limit for this API.");
    return { data: [], pagination: { current_page: 1, total_pages: 0, total_count: 0, per_page: 1 } };
  });
  const serviceUrl = await service.listen({ host: "127.0.0.1", port: 0 });
  relay = await startLiveBudgetRelay(sandbox, { serviceUrl });
});

afterAll(async () => {
  await relay?.close();
  await service?.close();
  await sandbox?.close();
});

test("a 429 with Retry-After: N holds the team's next request for N seconds exactly", async () => {
  const first = await relay.addUser("first", [100]);
  const colleague = await relay.addUser("colleague", [100]);
  const lookup = (page: number) => `/v1/properties/lookup?account_id=100&per_page=1&page=${page}`;

  const refused = await relay.api(first, lookup(1));
  expect(refused.status).toBe(429);
  expect(refused.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS));
  expect(lookups).toBe(1);

  let settled: Response | undefined;
  void relay.api(colleague, lookup(2)).then((answer) => (settled = answer));
  await until(
    "the colleague's request to wait at the gate, or its answer",
    () => relay.waiting("colleague") === 1 || settled !== undefined,
  );
  expect(settled?.status).toBeUndefined();
  await relay.clock.advance(RETRY_AFTER_SECONDS * 1000 - 1000);
  expect(relay.waiting("colleague")).toBe(1);
  expect(lookups).toBe(1);
  expect(settled?.status).toBeUndefined();
  await relay.clock.advance(1000);
  await until("the colleague's answer", () => settled !== undefined);
  expect(settled?.status).toBe(200);
  expect(lookups).toBe(2);
});
