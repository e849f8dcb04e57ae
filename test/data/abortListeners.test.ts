import "fake-indexeddb/auto";
import { getEventListeners } from "node:events";
import { RequestGate } from "../../src/data/requestGate";
import { until } from "../support/drained";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";
import { ACCOUNT_ID, layerFor, propertyIds } from "./support/dataHarness";
import { PROPERTY_DETAILS } from "../../src/data/batchedEndpoints";

/**
 * The shared runtime lives all day: a listener left on a signal is a leak, and a block formula of 250 ids
 * waits on its cell's one signal. However many waits share a signal, it carries at most one listener of
 * ours, and none once they have settled.
 */
let env: SignedInSandbox;

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro", { propertyCount: 2000 });
});

afterAll(() => env.close());

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

/** A fetch that holds every bulk details request until the test lets it go: the ids wait as long as it likes. */
function holdingBulkDetails() {
  const held: (() => void)[] = [];
  const holding: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.includes("/properties/bulk_details")) await new Promise<void>((resolve) => held.push(resolve));
    return fetch(input, init);
  };
  return { held, holding };
}

/** A signal that keeps the most abort listeners it carried at any moment (counted at every addition). */
function countingSignal() {
  const controller = new AbortController();
  const { signal } = controller;
  let most = 0;
  const add = signal.addEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    add(...args);
    most = Math.max(most, abortListeners(signal));
  }) as typeof add;
  return { signal, most: () => most };
}

describe("abort listeners", () => {
  it("250 property ids waiting on one signal put one listener on it, and none after", async () => {
    const { held, holding } = holdingBulkDetails();
    const { layer } = layerFor(env.sandbox, {}, holding);
    await layer.accounts();
    const ids = propertyIds(env.sandbox, 250);
    const { signal, most } = countingSignal();
    const pending = layer.readMany(PROPERTY_DETAILS, {}, ids, { accountId: ACCOUNT_ID, signal });
    // Two requests (at most 200 ids each) are out and held: every id's wait and both batches are on the signal.
    await until(() => held.length === 2);
    expect(abortListeners(signal)).toBe(1);
    held.forEach((release) => release());
    const result = await pending;
    expect(result.records.size).toBe(250);
    expect(most()).toBe(1);
    expect(abortListeners(signal)).toBe(0);
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
