/**
 * A workbook recalculated after a new sign-in over the same IndexedDB (Excel reopened, or the pane signed in
 * again): the new data layer reads the stored answers into memory in one go while it signs in, and every
 * cell is then answered from memory, at no more cost than its own work.
 */
import "fake-indexeddb/auto";
import { referenceWorkbook, WORKBOOK_CLIENT } from "../bench/referenceWorkbook";
import { total } from "../bench/sandboxTraffic";
import { evaluateWorkbook, isError } from "../bench/workbookRunner";
import { property } from "../../src/functions/propertyFunctions";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

let env: SignedInSandbox;

beforeAll(async () => {
  env = await startSignedInSandbox(WORKBOOK_CLIENT.clientId);
});

afterAll(() => env.close());

/** Counts the AbortControllers made while it is installed (each cell that waits makes one). */
function countAbortControllers(): { count: number; restore: () => void } {
  const original = globalThis.AbortController;
  const counter = {
    count: 0,
    restore: () => {
      globalThis.AbortController = original;
    },
  };
  globalThis.AbortController = class extends original {
    constructor() {
      super();
      counter.count += 1;
    }
  };
  return counter;
}

it("answers every cell from memory: no request, no IndexedDB read per key, no signal or timer per cell", async () => {
  // The reference workbook's mix, small: single property cells, a block, forecasts, markets, units, surveys, narratives.
  const workbook = referenceWorkbook(env.sandbox.context.dataset(), 0.05);
  const cold = await evaluateWorkbook(workbook.cells);
  expect(cold.filter((outcome) => !isError(outcome)).length).toBeGreaterThan(workbook.cells.length / 2);

  await env.signInAs(WORKBOOK_CLIENT.clientId);
  const requestsBefore = total(env.sandbox.counters.snapshot());
  const readsPerKey = jest.spyOn(IDBObjectStore.prototype, "get");
  const timers = jest.spyOn(globalThis, "setTimeout");
  const controllers = countAbortControllers();
  try {
    const warm = await evaluateWorkbook(workbook.cells);
    expect(warm).toEqual(cold);
    expect(total(env.sandbox.counters.snapshot())).toBe(requestsBefore);
    expect(readsPerKey).not.toHaveBeenCalled();
    expect(controllers.count).toBe(0);
    expect(timers).not.toHaveBeenCalled();
  } finally {
    controllers.restore();
    timers.mockRestore();
    readsPerKey.mockRestore();
  }
});

/** Whether `pending` has settled after `turns` microtask turns, with no timer or I/O in between. */
async function settlesWithin(pending: Promise<unknown>, turns: number): Promise<boolean> {
  let settled = false;
  pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < turns; turn += 1) await null;
  return settled;
}

it("ends a property cell that memory answers in the same turn, without an async frame", async () => {
  const [first, second] = env.sandbox.context
    .dataset()
    .properties.slice(0, 2)
    .map((record) => record.id) as [number, number];
  await property([[first]], [["asking_rent"]], fakeInvocation());
  await property([[first], [second]], [["unit_count"]], fakeInvocation());

  const single = property([[first]], [["asking_rent"]], fakeInvocation());
  const column = property([[first], [second]], [["unit_count"]], fakeInvocation());
  // One turn: the returned promise is already resolved; an async frame and a promise wrapped in another take more.
  expect(await settlesWithin(single, 1)).toBe(true);
  expect(await settlesWithin(column, 1)).toBe(true);
  expect(await single).toEqual([[expect.any(Number)]]);
  expect(await column).toHaveLength(2);
});
