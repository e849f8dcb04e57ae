import { BudgetedBatch } from "../../src/excel/budgetedBatch";

/** A request context that only counts its syncs and what each carried. */
function countingContext() {
  const sent: string[][] = [];
  let queued: string[] = [];
  const context = {
    sync: async () => {
      sent.push(queued);
      queued = [];
    },
  } as unknown as Excel.RequestContext;
  return { context, sent, queue: (write: string) => () => void queued.push(write) };
}

describe("BudgetedBatch at its budget", () => {
  it("puts writes that fill the budget exactly into one request, and one byte more into the next", async () => {
    const { context, sent, queue } = countingContext();
    const batch = new BudgetedBatch(context, 100);
    await batch.add(60, queue("a"));
    await batch.add(40, queue("b"));
    await batch.add(1, queue("c"));
    await batch.flush();
    expect(sent).toEqual([["a", "b"], ["c"]]);
    expect(batch.requests).toBe(2);
  });
});
