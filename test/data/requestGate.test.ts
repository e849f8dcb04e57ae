import { RateLimiter } from "../../sandbox/auth/rateLimiter";
import { SandboxClock } from "../../sandbox/clock";
import { RequestGate } from "../../src/data/requestGate";
import { TokenBucket } from "../../src/data/tokenBucket";
import { drained } from "../support/drained";

/** The live service's limit, as its error pages state it (docs: api-notes.md): 100 requests per 5 minutes. */
const DOCUMENTED_LIMIT = { limit: 100, windowMs: 300_000 };
/**
 * Connections a browser opens to one origin over HTTP/1.1 (Chromium, Firefox and Safari: 6); a request
 * beyond them only queues inside the browser.
 */
const BROWSER_CONNECTIONS_PER_ORIGIN = 6;

/** A clock that moves only when the gate sleeps, so pacing is checked by counting, not by waiting. */
function manualTime() {
  const time = { now: 0, sleeps: [] as number[] };
  const sleep = async (ms: number) => {
    time.sleeps.push(ms);
    time.now += ms;
  };
  return { time, now: () => time.now, sleep };
}

describe("TokenBucket", () => {
  it("lets a burst through, then paces so that no window sees more than the limit", () => {
    let now = 0;
    const bucket = new TokenBucket({ limit: 100, windowMs: 300_000, burst: 50 }, () => now);
    for (let i = 0; i < 50; i++) expect(bucket.take()).toBe(0);
    const wait = bucket.take();
    expect(wait).toBe(6000); // (100 - 50) tokens per 300 s: one every 6 s
    let granted = 50;
    while (now < 300_000) {
      const next = bucket.take();
      if (next === 0) granted += 1;
      else now += next;
    }
    expect(granted).toBeLessThanOrEqual(100);
    expect(granted).toBeGreaterThanOrEqual(99);
  });

  it("refuses a burst larger than the limit", () => {
    expect(() => new TokenBucket({ limit: 10, windowMs: 1000, burst: 11 }, () => 0)).toThrow(/burst/);
  });
});

describe("RequestGate", () => {
  it("never has more than maxInFlight requests out and serves waiters in arrival order", async () => {
    const { now, sleep } = manualTime();
    const gate = new RequestGate({
      maxInFlight: 2,
      now,
      sleep,
      pacing: { limit: 1000, windowMs: 1000, burst: 1000 },
    });
    const order: number[] = [];
    let out = 0;
    let maxOut = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, index) => {
        const release = await gate.acquire();
        order.push(index);
        out += 1;
        maxOut = Math.max(maxOut, out);
        await Promise.resolve();
        out -= 1;
        release();
      }),
    );
    expect(maxOut).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("takes 429s whose ends are within Retry-After's one-second resolution as one pause, a later end as another", () => {
    let now = 0;
    const gate = new RequestGate({
      pacing: { limit: 1000, windowMs: 1000, burst: 1000 },
      now: () => now,
      sleep: () => new Promise<void>(() => undefined),
    });
    gate.pauseFor(5_000);
    now = 10;
    gate.pauseFor(5_990); // ends 1,000 ms after the pause in force: the same burst of 429s
    expect(gate.pauses).toBe(1);
    gate.pauseFor(5_991); // a millisecond later still: a new pause
    expect(gate.pauses).toBe(2);
  });

  it("holds everyone back during a pause, once, until the latest requested end", async () => {
    // A clock that stands still until the test ends a sleep: nothing can be let through by time passing.
    let now = 0;
    const sleeps: { ms: number; finish: () => void }[] = [];
    const gate = new RequestGate({
      maxInFlight: 10,
      pacing: { limit: 1000, windowMs: 1000, burst: 1000 },
      now: () => now,
      sleep: (ms) =>
        new Promise<void>((resolve) => sleeps.push({ ms, finish: () => ((now += ms), resolve()) })),
    });
    gate.pauseFor(2000);
    gate.pauseFor(1000); // ends earlier than the pause in force: no new pause
    let granted = 0;
    const waiters = Array.from({ length: 5 }, () =>
      gate.acquire().then((release) => ((granted += 1), release)),
    );
    await drained();
    expect(granted).toBe(0);
    expect(sleeps.map((s) => s.ms)).toEqual([2000]);
    expect(gate.pauses).toBe(1);
    sleeps[0]?.finish();
    const releases = await Promise.all(waiters);
    expect(granted).toBe(5);
    releases.forEach((release) => release());
  });

  it("paces with the bucket: requests beyond the burst wait for refills", async () => {
    const { time, now, sleep } = manualTime();
    const gate = new RequestGate({
      maxInFlight: 100,
      now,
      sleep,
      pacing: { limit: 10, windowMs: 10_000, burst: 5 },
    });
    const releases = await Promise.all(Array.from({ length: 8 }, () => gate.acquire()));
    releases.forEach((release) => release());
    // 5 at once, then 3 more at one per 2 s (5 refills per 10 s).
    expect(time.sleeps.reduce((a, b) => a + b, 0)).toBe(6000);
  });

  it("drops a waiter whose caller cancels, without touching the others", async () => {
    const gate = new RequestGate({ maxInFlight: 1, pacing: { limit: 100, windowMs: 1000, burst: 100 } });
    const first = await gate.acquire();
    const controller = new AbortController();
    const cancelled = gate.acquire(controller.signal);
    const next = gate.acquire();
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ kind: "cancelled" });
    first();
    const release = await next;
    release();
  });
});

describe("the gate's progress (the pane's progress strip)", () => {
  it("counts what is out of the pull and what waits, and the wait left at the pacing in force", async () => {
    const now = 0;
    // A sleep that never ends: the pacing holds the rest in line, as it would for the next 6 s.
    const gate = new RequestGate({
      pacing: { limit: 10, windowMs: 10_000, burst: 2 },
      maxInFlight: 100,
      now: () => now,
      sleep: () => new Promise<void>(() => undefined),
    });
    expect(gate.progress).toMatchObject({ total: 0, waiting: 0, timeLeftMs: 0 });
    const granted: number[] = [];
    for (let index = 0; index < 5; index++) void gate.acquire().then(() => granted.push(index));
    await Promise.resolve();
    await Promise.resolve();
    expect(granted).toEqual([0, 1]);
    // Two of five on the wire; three wait for refills of one token per 1,250 ms ((10 - 2) per 10 s).
    expect(gate.progress).toMatchObject({ total: 5, waiting: 3, onTheWire: 2, done: 0, timeLeftMs: 3_750 });
  });

  it("adds a pause the service asked for to the time left, and says so, but not one it refuses through", () => {
    const now = 0;
    const gate = new RequestGate({
      pacing: { limit: 10, windowMs: 10_000, burst: 2 },
      now: () => now,
      sleep: () => new Promise<void>(() => undefined),
    });
    let changes = 0;
    gate.onChange(() => changes++);
    for (let index = 0; index < 3; index++) void gate.acquire().catch(() => undefined);
    gate.pauseFor(20_000);
    expect(changes).toBeGreaterThan(3);
    // Two went before the pause; the third waits it out, then one refill.
    expect(gate.progress).toMatchObject({ waiting: 1, pausedForMs: 20_000, timeLeftMs: 21_250 });
    // A wait longer than a caller may sit out fails the waiting request: nothing waits, no pause to sit out.
    gate.pauseFor(60_000);
    expect(gate.progress).toMatchObject({ waiting: 0, pausedForMs: 0, timeLeftMs: 0 });
  });
});

describe("the gate's defaults", () => {
  it("pace at the documented live limit: never more than 100 requests in any 300 s, fixed or rolling", async () => {
    const { time, now, sleep } = manualTime();
    const gate = new RequestGate({ now, sleep, maxInFlight: 1000 });
    const grantedAt: number[] = [];
    for (let n = 0; n < 400; n++) {
      const release = await gate.acquire();
      grantedAt.push(time.now);
      release();
    }
    const mostInAnyWindow = Math.max(
      ...grantedAt.map((end) => grantedAt.filter((at) => at > end - 300_000 && at <= end).length),
    );
    expect(mostInAnyWindow).toBeLessThanOrEqual(100);
    expect(mostInAnyWindow).toBeGreaterThanOrEqual(99); // and not timid: the limit is there to be used
    // The sandbox's own limiters, fixed and rolling (which halves the limit after a burst), refuse none of them.
    for (const mode of ["fixed", "rolling"] as const) {
      const clock = new SandboxClock(0);
      const limiter = new RateLimiter(clock, DOCUMENTED_LIMIT.limit, DOCUMENTED_LIMIT.windowMs / 1000, mode);
      const refused = grantedAt.filter((at) => {
        clock.set(at);
        return !limiter.consume("token").allowed;
      });
      expect(refused).toEqual([]);
    }
  });

  it("let out at once as many requests as a browser opens connections to one origin, the next when one ends", async () => {
    const gate = new RequestGate({ pacing: { limit: 1000, windowMs: 1000, burst: 1000 } });
    let granted = 0;
    const releases = Array.from({ length: 20 }, () =>
      gate.acquire().then((release) => ((granted += 1), release)),
    );
    await drained();
    expect(granted).toBe(BROWSER_CONNECTIONS_PER_ORIGIN);
    (await releases[0])?.();
    await drained();
    expect(granted).toBe(BROWSER_CONNECTIONS_PER_ORIGIN + 1);
    for (const release of releases) (await release)();
    expect(granted).toBe(20);
  });

  it("adopt the limit the service announces, and pace by it from then on", async () => {
    const { time, now, sleep } = manualTime();
    const gate = new RequestGate({ now, sleep, maxInFlight: 1000 });
    expect(gate.limit).toMatchObject({ ...DOCUMENTED_LIMIT, learned: false });
    gate.adopt({ limit: 10, windowSeconds: 60 });
    expect(gate.limit).toEqual({ limit: 10, windowMs: 60_000, burst: 5, learned: true });
    for (let n = 0; n < 8; n++) (await gate.acquire())();
    // 5 at once, then one per 12 s (5 refills per 60 s).
    expect(time.now).toBe(36_000);
    gate.adopt({ limit: 10 }); // the count alone: the window in force stays
    expect(gate.limit).toMatchObject({ limit: 10, windowMs: 60_000 });
  });
});

describe("a wait longer than a caller may sit out", () => {
  it("fails every queued and every new request at once, until the rest of it is short enough", async () => {
    let clock = 1_000_000;
    const sleeps: number[] = [];
    const gate = new RequestGate({
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
      maxInFlight: 1,
      longestWaitMs: 30_000,
      pacing: { limit: 1000, windowMs: 1000, burst: 1000 },
    });
    const first = await gate.acquire();
    const queued = gate.acquire();
    gate.pauseFor(330_000);
    await expect(queued).rejects.toMatchObject({
      kind: "rate_limited",
      details: { rateLimitedUntilMs: 1_330_000, retryAfterSeconds: 330 },
    });
    await expect(gate.acquire()).rejects.toMatchObject({ kind: "rate_limited" });
    expect(gate.refusingUntilMs).toBe(1_330_000);
    first();
    clock += 310_000; // 20 s left: a wait requests sit out
    expect(gate.refusingUntilMs).toBeUndefined();
    const later = gate.acquire();
    (await later)();
    expect(sleeps).toEqual([20_000]);
  });
});
