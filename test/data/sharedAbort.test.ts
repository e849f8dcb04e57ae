import { SharedAbort } from "../../src/data/sharedAbort";

describe("SharedAbort", () => {
  it("aborts only when every caller gave up, counting a signal that joins twice once", () => {
    const shared = new SharedAbort();
    const block = new AbortController();
    const cell = new AbortController();
    shared.join(block.signal);
    shared.join(block.signal);
    shared.join(cell.signal);
    block.abort();
    expect(shared.signal.aborted).toBe(false);
    cell.abort();
    expect(shared.signal.aborted).toBe(true);
    expect(shared.signal.reason).toMatchObject({ kind: "cancelled" });
  });

  it("never aborts when a caller joined without a signal", () => {
    const shared = new SharedAbort();
    const cell = new AbortController();
    shared.join(undefined);
    shared.join(cell.signal);
    cell.abort();
    expect(shared.signal.aborted).toBe(false);
  });

  it("stops listening to the callers once released", () => {
    const shared = new SharedAbort();
    const cell = new AbortController();
    shared.join(cell.signal);
    shared.release();
    cell.abort();
    expect(shared.signal.aborted).toBe(false);
  });
});
