import { DEFAULT_REQUEST_BUDGET_BYTES } from "../tables/payloadBytes";

/**
 * Queues many small writes (one formula here, one spill of values there) and syncs whenever the next one
 * would push the request past the budget, so scattered writes share requests without any crossing the limit.
 */
export class BudgetedBatch {
  private pendingBytes = 0;
  private syncs = 0;

  constructor(
    private readonly context: Excel.RequestContext,
    private readonly budgetBytes: number = DEFAULT_REQUEST_BUDGET_BYTES,
  ) {}

  /** Queues a write of about `bytes` (after syncing what is pending, when together they would not fit). */
  async add(bytes: number, queueWrite: () => void): Promise<void> {
    if (this.pendingBytes > 0 && this.pendingBytes + bytes > this.budgetBytes) await this.flush();
    queueWrite();
    this.pendingBytes += bytes;
  }

  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    await this.context.sync();
    this.syncs++;
    this.pendingBytes = 0;
  }

  /** Requests this batch has sent. */
  get requests(): number {
    return this.syncs;
  }
}
