import { canonicalJson, requestKey } from "../../src/data/cacheKey";
import { KeyedBatcher } from "../../src/data/keyedBatcher";
import { RequestCoalescer } from "../../src/data/requestCoalescer";
import { backoffDelayMs, DEFAULT_RETRY } from "../../src/data/retryPolicy";

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe("RequestCoalescer", () => {
  it("shares one call between identical requests and lets a caller cancel alone", async () => {
    const coalescer = new RequestCoalescer();
    const answer = deferred<string>();
    let started = 0;
    let sharedSignal: AbortSignal | undefined;
    const start = (signal: AbortSignal) => {
      started += 1;
      sharedSignal = signal;
      return answer.promise;
    };
    const leaving = new AbortController();
    const first = coalescer.run("k", leaving.signal, start);
    const second = coalescer.run("k", new AbortController().signal, start);
    leaving.abort();
    await expect(first).rejects.toMatchObject({ kind: "cancelled" });
    expect(sharedSignal?.aborted).toBe(false);
    answer.resolve("value");
    await expect(second).resolves.toBe("value");
    expect(started).toBe(1);
    expect(coalescer.shared).toBe(1);
  });

  it("cancels the shared call when every caller has cancelled", async () => {
    const coalescer = new RequestCoalescer();
    let sharedSignal: AbortSignal | undefined;
    const callers = [new AbortController(), new AbortController()];
    const waits = callers.map((caller) =>
      coalescer.run("k", caller.signal, (signal) => {
        sharedSignal = signal;
        return new Promise<never>(() => undefined);
      }),
    );
    callers.forEach((caller) => caller.abort());
    await Promise.allSettled(waits);
    expect(sharedSignal?.aborted).toBe(true);
  });
});

describe("KeyedBatcher", () => {
  it("loads the keys of a window together, per group, and fails only the callers of a missing key", async () => {
    const loads: { group: string; keys: number[] }[] = [];
    const batcher = new KeyedBatcher<string, number, string>({
      windowMs: 0,
      keyOf: String,
      load: async (group, keys) => {
        loads.push({ group, keys });
        return new Map(keys.map((key) => [String(key), key === 13 ? new Error("no 13") : `${group}:${key}`]));
      },
    });
    const results = await Promise.allSettled([
      batcher.load("a", "a", 1),
      batcher.load("a", "a", 2),
      batcher.load("a", "a", 1),
      batcher.load("b", "b", 1),
      batcher.load("a", "a", 13),
    ]);
    expect(
      results.map((result) => (result.status === "fulfilled" ? result.value : result.reason.message)),
    ).toEqual(["a:1", "a:2", "a:1", "b:1", "no 13"]);
    expect(loads).toEqual([
      { group: "a", keys: [1, 2, 13] },
      { group: "b", keys: [1] },
    ]);
  });
});

describe("cache keys", () => {
  it("do not depend on member order or undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: undefined, c: [1, "x"] } })).toBe('{"a":{"c":[1,"x"]},"b":1}');
    const one = requestKey({
      kind: "units",
      caller: "c",
      accountId: 1,
      endpoint: "/u",
      params: { a: 1, b: 2 },
    });
    const two = requestKey({
      kind: "units",
      caller: "c",
      accountId: 1,
      endpoint: "/u",
      params: { b: 2, a: 1 },
    });
    expect(one).toBe(two);
    expect(requestKey({ kind: "units", caller: "other", accountId: 1, endpoint: "/u", params: {} })).not.toBe(
      requestKey({ kind: "units", caller: "c", accountId: 1, endpoint: "/u", params: {} }),
    );
  });
});

describe("backoff", () => {
  it("grows exponentially up to the cap, with jitter below the bound", () => {
    const options = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelayMs(options, retry, () => 1))).toEqual([
      100, 200, 400, 800, 1000,
    ]);
    expect(backoffDelayMs(options, 3, () => 0.5)).toBe(200);
    expect(backoffDelayMs(options, 3, () => 0)).toBe(0);
  });
});
