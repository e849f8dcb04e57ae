import { ApiError } from "../../src/api/errors";
import { RequestExecutor } from "../../src/data/requestExecutor";
import { RequestGate } from "../../src/data/requestGate";
import { DEFAULT_RETRY } from "../../src/data/retryPolicy";

const noWait = async () => undefined;

function executor(retry: Partial<typeof DEFAULT_RETRY> = {}) {
  const gate = new RequestGate({ sleep: noWait, pacing: { limit: 1000, windowMs: 1000, burst: 1000 } });
  return new RequestExecutor(gate, { ...DEFAULT_RETRY, ...retry }, noWait, () => 0.5);
}

/** A request that fails with the given errors in turn, then answers "ok". */
function failingWith(errors: ApiError[], idempotent = true) {
  const sent = { count: 0 };
  return {
    sent,
    request: {
      idempotent,
      send: async () => {
        const error = errors[sent.count];
        sent.count += 1;
        if (error) throw error;
        return "ok";
      },
    },
  };
}

const signal = () => new AbortController().signal;
const rateLimited = () => new ApiError("rate_limited", "429", { retryAfterSeconds: 1 });

describe("RequestExecutor", () => {
  it("retries transient failures of reads up to maxAttempts", async () => {
    const { sent, request } = failingWith([
      new ApiError("server", "500"),
      new ApiError("offline", "dropped"),
    ]);
    await expect(executor({ maxAttempts: 3 }).run(request, signal())).resolves.toBe("ok");
    expect(sent.count).toBe(3);
    const always = failingWith(Array.from({ length: 10 }, () => new ApiError("timeout", "slow")));
    await expect(executor({ maxAttempts: 3 }).run(always.request, signal())).rejects.toMatchObject({
      kind: "timeout",
    });
    expect(always.sent.count).toBe(3);
  });

  it("tries a read six times by default before it gives up (one failure in 10,000 at a fifth failing)", async () => {
    const always = failingWith(Array.from({ length: 10 }, () => new ApiError("server", "503")));
    await expect(executor().run(always.request, signal())).rejects.toMatchObject({ kind: "server" });
    expect(always.sent.count).toBe(6);
  });

  it("does not retry what will fail again: invalid input, not found, quota", async () => {
    for (const kind of ["invalid_input", "not_found", "quota_exceeded", "forbidden"] as const) {
      const { sent, request } = failingWith([new ApiError(kind, kind)]);
      await expect(executor().run(request, signal())).rejects.toMatchObject({ kind });
      expect(sent.count).toBe(1);
    }
  });

  it("sends a job submission again after a 429 (refused unprocessed) but never after a 5xx", async () => {
    const after429 = failingWith([rateLimited()], false);
    await expect(executor().run(after429.request, signal())).resolves.toBe("ok");
    expect(after429.sent.count).toBe(2);
    const after500 = failingWith([new ApiError("server", "500")], false);
    await expect(executor().run(after500.request, signal())).rejects.toMatchObject({ kind: "server" });
    expect(after500.sent.count).toBe(1);
  });

  it("tells the caller 'rate limited' after maxRateLimitWaits waits", async () => {
    const { sent, request } = failingWith(Array.from({ length: 10 }, rateLimited));
    await expect(executor({ maxRateLimitWaits: 2 }).run(request, signal())).rejects.toMatchObject({
      kind: "rate_limited",
    });
    expect(sent.count).toBe(3);
  });

  it("stops retrying once the caller has cancelled", async () => {
    const controller = new AbortController();
    const request = {
      idempotent: true,
      send: async () => {
        controller.abort();
        throw new ApiError("server", "500");
      },
    };
    await expect(executor().run(request, controller.signal)).rejects.toMatchObject({ kind: "cancelled" });
  });
});
