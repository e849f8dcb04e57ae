import "fake-indexeddb/auto";
import { getEventListeners } from "node:events";
import { RequestGate } from "../../src/data/requestGate";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";
import { ACCOUNT_ID, layerFor, propertyIds } from "./support/dataHarness";

/**
 * The shared runtime lives all day: a listener left on a signal is a leak, and a block formula of 250 ids
 * waits on its cell's one signal. However many waits share a signal, it carries at most one listener of
 * ours, and none once they have settled.
 */
let env: SignedInSandbox;

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro", { propertyCount: 2000 });
});

afterEach(() => env.sandbox.faults.reset());

afterAll(() => env.close());

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

/** The most listeners `signal` carried while `work` ran (sampled every few ms). */
async function mostListenersDuring<T>(
  signal: AbortSignal,
  work: Promise<T>,
): Promise<{ result: T; most: number }> {
  let most = abortListeners(signal);
  const sampler = setInterval(() => {
    most = Math.max(most, abortListeners(signal));
  }, 2);
  try {
    const result = await work;
    return { result, most };
  } finally {
    clearInterval(sampler);
  }
}

describe("abort listeners", () => {
  it("250 property ids waiting on one signal put one listener on it, and none after", async () => {
    const { layer } = layerFor(env.sandbox);
    await layer.accounts();
    const ids = propertyIds(env.sandbox, 250);
    env.sandbox.faults.update({ latencyMs: 100 });
    const controller = new AbortController();
    const pending = layer.propertyDetails(ids, { accountId: ACCOUNT_ID, signal: controller.signal });
    // Sampled while the ids wait: the batch and every id's wait are on the signal by now.
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(abortListeners(controller.signal)).toBe(1);
    const { result, most } = await mostListenersDuring(controller.signal, pending);
    expect(result.records.size).toBe(250);
    expect(most).toBeLessThanOrEqual(1);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it("many requests queued at the gate with one signal: one listener, none once they have their turn", async () => {
    const gate = new RequestGate({ maxInFlight: 2, pacing: { limit: 1000, windowMs: 1000, burst: 1000 } });
    const controller = new AbortController();
    const turns = Array.from({ length: 20 }, () => gate.acquire(controller.signal));
    expect(abortListeners(controller.signal)).toBe(1);
    for (const turn of turns) (await turn)();
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it("a cancelled wait leaves no listener, and the others still get their turn", async () => {
    const gate = new RequestGate({ maxInFlight: 1, pacing: { limit: 1000, windowMs: 1000, burst: 1000 } });
    const first = await gate.acquire();
    const cell = new AbortController();
    const other = new AbortController();
    const cancelled = gate.acquire(cell.signal);
    const waiting = gate.acquire(other.signal);
    cell.abort();
    await expect(cancelled).rejects.toMatchObject({ kind: "cancelled" });
    expect(abortListeners(cell.signal)).toBe(0);
    first();
    (await waiting)();
    expect(abortListeners(other.signal)).toBe(0);
  });
});
