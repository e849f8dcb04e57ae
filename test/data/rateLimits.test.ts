import "../support/customFunctionsGlobal";
import "fake-indexeddb/auto";
import { SHARED_ACCOUNT_ID } from "../../sandbox/data/clients";
import { clockTime } from "../../src/formats/localTime";
import { DEFAULT_CELL_TIMEOUT_MS } from "../../src/functions/cellCall";
import { property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { CompSetsController } from "../../src/taskpane/compSetsController";
import { describeError } from "../../src/taskpane/messages";
import { SignInController } from "../../src/taskpane/signInController";
import { UsageTracker } from "../../src/taskpane/usageTracker";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";
import { clientForm, newSession, newSettings, newVault } from "../taskpane/support/paneHarness";
import { ACCOUNT_ID, layerFor, propertyIds, propertyOf } from "./support/dataHarness";

/**
 * The service's 429s in every form RFC 9110 and the live service allow: Retry-After in seconds, as an HTTP
 * date, absent, or a day long. A cell never waits silently until its own time bound.
 */
let env: SignedInSandbox;
const BULK_DETAILS = "/v1/properties/bulk_details";
const NO_HEADERS_BACKOFF_MS = 330_000;

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro", { propertyCount: 2000 });
});

beforeEach(async () => {
  env.sandbox.faults.reset();
  env.sandbox.context.rateLimiter.configure(1_000_000, 300, "fixed");
  // A new sign-in per test: a new data layer, whose gate has not been told to wait.
  await env.signInAs("demo-pro");
});

afterAll(() => env.close());

/** Runs `work`, returning how it failed and the instants just before and after. */
async function failure(work: () => Promise<unknown>) {
  const before = Date.now();
  const error = await work().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { error, before, after: Date.now() };
}

/** The "until HH:MM" a wait of `waitMs` that began between `before` and `after` can show. */
function untilTimes(before: number, after: number, waitMs: number): string[] {
  return [...new Set([clockTime(before + waitMs, before), clockTime(after + waitMs, after)])];
}

describe("a 429 without any header", () => {
  it("fails the cell at once with #N/A 'rate limited until HH:MM', 330 s ahead, and spends no request after", async () => {
    const [id] = propertyIds(env.sandbox, 1) as [number];
    env.sandbox.faults.update({ rateLimitHeaders: "none", rateLimitBurst: 1 });
    const before = env.sandbox.counters.get(BULK_DETAILS);
    const {
      error,
      before: start,
      after,
    } = await failure(() => property([[id]], [["asking_rent"]], fakeInvocation()));
    expect(after - start).toBeLessThan(DEFAULT_CELL_TIMEOUT_MS);
    const times = untilTimes(start, after, NO_HEADERS_BACKOFF_MS);
    expect(error).toMatchObject({ code: "#N/A" });
    expect(
      times.map((time) => `Rate limited until ${time}: the service refuses requests until then.`),
    ).toContain((error as Error).message);
    // Every other cell fails the same way without asking: the service has said "not now".
    await expect(property([[id + 1]], [["asking_rent"]], fakeInvocation())).rejects.toMatchObject({
      code: "#N/A",
      message: (error as Error).message,
    });
    expect(env.sandbox.counters.get(BULK_DETAILS) - before).toBe(1);
    const stats = await session.requireSignedIn().data.stats();
    expect(stats.requests.rateLimitedUntilMs).toBeGreaterThanOrEqual(start + NO_HEADERS_BACKOFF_MS);
    expect(stats.requests.rateLimitedUntilMs).toBeLessThanOrEqual(after + NO_HEADERS_BACKOFF_MS);
  });
});

describe("Retry-After as an HTTP date", () => {
  it("is waited out like seconds: one pause of that length, then the answer", async () => {
    env.sandbox.context.rateLimiter.configure(1_000_000, 6);
    const pauses: number[] = [];
    let retryAfter = "";
    const { layer } = layerFor(
      env.sandbox,
      { sleep: async (ms) => void (ms >= 1000 && pauses.push(ms)) },
      async (input, init) => {
        const response = await fetch(input, init);
        if (response.status !== 429) return response;
        retryAfter = response.headers.get("retry-after") ?? "";
        // Only the date names the wait: without it the client would back off for 330 s.
        const headers = new Headers(response.headers);
        headers.delete("x-ratelimit-reset");
        return new Response(await response.text(), { status: 429, headers });
      },
    );
    await layer.accounts(); // starts the token's window: the burst's Retry-After is the rest of it
    const [id] = propertyIds(env.sandbox, 1) as [number];
    env.sandbox.faults.update({ rateLimitHeaders: "http-date", rateLimitBurst: 1 });
    const asked = Date.now();
    const answer = await propertyOf(layer, id, { accountId: ACCOUNT_ID });
    expect(answer.value).toMatchObject({ property_id: id });
    expect(retryAfter).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toBeGreaterThan(0);
    expect(pauses[0]).toBeLessThanOrEqual(Date.parse(retryAfter) - asked + 1000);
    expect(pauses[0]).toBeGreaterThanOrEqual(Date.parse(retryAfter) - Date.now() - 1000);
  });
});

describe("a Retry-After of a day", () => {
  it("fails cells at once, and the pane's Reload comp sets says until when, as does its usage line", async () => {
    env.sandbox.context.rateLimiter.configure(1_000_000, 86_400);
    const paneSession = newSession();
    await new SignInController({ session: paneSession, ...newSettings(), vault: newVault().vault }).signIn(
      clientForm(env.sandbox, "demo-pro"),
    );
    paneSession.selectAccount(SHARED_ACCOUNT_ID);
    const controller = new CompSetsController(paneSession, async () => {
      throw new Error("no workbook in this test");
    });
    env.sandbox.faults.update({ rateLimitBurst: 1 });
    const { error, before, after } = await failure(() => controller.list());
    expect(after - before).toBeLessThan(DEFAULT_CELL_TIMEOUT_MS);
    expect(error).toMatchObject({ kind: "rate_limited" });
    const message = (error as Error).message;
    // A day ahead: the date comes with the time.
    const day = untilTimes(before, after, 86_400_000);
    expect(
      day.map((time) => `Rate limited until ${time}: the service refuses requests until then.`),
    ).toContain(message);
    expect(message).toMatch(/until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:/);
    expect(describeError(error)).toContain(message);
    const { data } = paneSession.requireSignedIn();
    const lines = new UsageTracker().lines(
      await data.stats(),
      SHARED_ACCOUNT_ID,
      data.quota.standing(SHARED_ACCOUNT_ID),
    );
    expect(lines).toContain(message);

    // A cell of the same sign-in fails the same way, at once.
    env.sandbox.faults.update({ rateLimitBurst: 1 });
    const [id] = propertyIds(env.sandbox, 1) as [number];
    const cell = await failure(() => property([[id]], [["asking_rent"]], fakeInvocation()));
    expect(cell.after - cell.before).toBeLessThan(DEFAULT_CELL_TIMEOUT_MS);
    expect(cell.error).toMatchObject({
      code: "#N/A",
      message: expect.stringMatching(/^Rate limited until /),
    });
  });
});

describe("limits learned from the service", () => {
  it("the gate starts at the documented 100 per 300 s and adopts the limit a 429 announces", async () => {
    // The 429's wait (the rest of a 20 s window) passes at once: this test looks at the limit, not the wait.
    const { layer } = layerFor(env.sandbox, { pacing: undefined, sleep: async () => undefined });
    expect((await layer.stats()).requests.limit).toEqual({
      limit: 100,
      windowMs: 300_000,
      burst: 50,
      learned: false,
    });
    env.sandbox.context.rateLimiter.configure(40, 20, "fixed");
    await layer.accounts();
    env.sandbox.faults.update({ rateLimitBurst: 1 });
    const [id] = propertyIds(env.sandbox, 1) as [number];
    await expect(propertyOf(layer, id, { accountId: ACCOUNT_ID })).resolves.toMatchObject({
      value: { property_id: id },
    });
    expect((await layer.stats()).requests.limit).toEqual({
      limit: 40,
      windowMs: 20_000,
      burst: 20,
      learned: true,
    });
  });

  it("a rolling window tightened by a burst: the client adopts the halved limit and says until when", async () => {
    env.sandbox.context.rateLimiter.configure(20, 120, "rolling");
    const { layer } = layerFor(env.sandbox, { pacing: undefined, maxInFlight: 1 });
    const ids = propertyIds(env.sandbox, 15);
    // One at a time, so the requests reach the service in order: 13 within a few seconds are a burst.
    const outcomes: string[] = [];
    for (const id of ids) {
      outcomes.push(
        await propertyOf(layer, id, { accountId: ACCOUNT_ID }).then(
          () => "ok",
          (error: Error) => error.message,
        ),
      );
    }
    // The 13th request made the burst and got through; the limit is now 10 of the last 120 s, and 13 were sent.
    expect(outcomes.slice(0, 13)).toEqual(Array.from({ length: 13 }, () => "ok"));
    expect(outcomes[13]).toMatch(
      /^Rate limited until \d{2}:\d{2}: the service refuses requests until then\.$/,
    );
    expect(new Set(outcomes.slice(13)).size).toBe(1);
    const { requests } = await layer.stats();
    expect(requests.limit).toEqual({ limit: 10, windowMs: 120_000, burst: 5, learned: true });
    expect(requests.rateLimitedUntilMs).toBeGreaterThan(Date.now() + 100_000);
  });
});
