import "fake-indexeddb/auto";
import { PROPERTY_DETAILS } from "../../src/data/batchedEndpoints";
import { ACCOUNTS } from "../../src/data/endpoints";
import type { Gate, ReleaseSlot } from "../../src/data/gate";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { ACCOUNT_ID, layerFor, propertyIds } from "./support/dataHarness";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startInProcessSandbox({ propertyCount: 300, rateLimit: 100_000 });
});

afterAll(async () => {
  await sandbox.close();
});

/** A gate that lets everything through at once and notes what it was asked. */
class RecordingGate implements Gate {
  granted = 0;
  held = 0;
  pauses: { ms: number; heldThen: number }[] = [];

  async acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) throw new Error("aborted");
    this.granted += 1;
    this.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
    };
  }

  pauseFor(ms: number): void {
    this.pauses.push({ ms, heldThen: this.held });
  }
}

/** The service's fetch, noting for each request whether the gate held a slot for it when it left. */
function watchedFetch(gate: RecordingGate, answer?: (sent: number) => Response | undefined) {
  const sent: { heldSlots: number }[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    sent.push({ heldSlots: gate.held });
    return answer?.(sent.length) ?? fetch(input, init);
  };
  return { sent, fetchImpl };
}

describe("a data layer given a gate", () => {
  it("sends every request of every kind of read through that gate, each while it holds a slot", async () => {
    const gate = new RecordingGate();
    const { sent, fetchImpl } = watchedFetch(gate);
    const { layer } = layerFor(sandbox, { gate }, fetchImpl);
    const ids = propertyIds(sandbox, 5);

    await layer.accounts();
    await layer.readAll(ACCOUNTS, {}, { fresh: true }, { maxItems: 2, perPage: 1 });
    await Promise.all(ids.map((id) => layer.readMany(PROPERTY_DETAILS, {}, [id], { accountId: ACCOUNT_ID })));
    await layer.send(ACCOUNTS, {});

    // One page of accounts, two pages of one, one batch of five properties, one send.
    expect(sent).toHaveLength(5);
    expect(gate.granted).toBe(sent.length);
    expect(sent.every((request) => request.heldSlots >= 1)).toBe(true);
    expect(gate.held).toBe(0);
    // Its views are the gate's to give: this data layer has no pacing of its own.
    expect(() => layer.progress()).toThrow("paced by the gate it was given");
  });

  it("tells the gate of a 429's wait before it releases the slot of the request that met it", async () => {
    const gate = new RecordingGate();
    const { sent, fetchImpl } = watchedFetch(gate, (count) =>
      count === 1
        ? new Response(JSON.stringify({ error: "Too Many Requests", message: "Slow down." }), {
            status: 429,
            headers: { "content-type": "application/json", "retry-after": "2" },
          })
        : undefined,
    );
    const { layer } = layerFor(sandbox, { gate }, fetchImpl);

    const accounts = await layer.accounts();

    expect(accounts.value.length).toBeGreaterThan(0);
    expect(gate.pauses).toEqual([{ ms: 2000, heldThen: 1 }]);
    expect(sent).toHaveLength(2);
    expect(gate.granted).toBe(2);
  });
});
