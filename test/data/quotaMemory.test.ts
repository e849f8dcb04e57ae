import type { DataLayer } from "../../src/data/dataLayer";
import { BulkExportQuotaGuard, type LearntQuota } from "../../src/data/quotaGuard";
import { keepLearntQuota } from "../../src/data/quotaMemory";

/** A sign-in's data layer as keepLearntQuota sees it: a cache holding `kept` under the quota's key, and a guard. */
function layerKeeping(kept: unknown): { data: DataLayer; quota: BulkExportQuotaGuard } {
  const quota = new BulkExportQuotaGuard();
  const cache = { get: async () => ({ value: kept }), setMany: async () => 1 };
  return { data: { cache, quota } as unknown as DataLayer, quota };
}

const complete: LearntQuota = { accounts: { 7: { limit: 300, usage: 250, learntAt: 1_000 } }, maxShare: 0.5 };

describe("keepLearntQuota after a reload", () => {
  it("restores what an earlier runtime kept", async () => {
    const { data, quota } = layerKeeping(complete);
    await keepLearntQuota(data, "demo-pro");
    expect(quota.learntQuota()).toEqual(complete);
  });

  it.each([
    ["an account without its usage", { accounts: { 7: { limit: 300, learntAt: 1_000 } } }],
    ["an account without its limit", { accounts: { 7: { usage: 250, learntAt: 1_000 } } }],
    ["an account without when it was learnt", { accounts: { 7: { limit: 300, usage: 250 } } }],
    ["a share past the whole quota", { accounts: {}, maxShare: 1.5 }],
    ["no accounts", { maxShare: 0.5 }],
  ])("restores nothing from a kept record with %s", async (_, kept) => {
    const { data, quota } = layerKeeping(kept);
    await keepLearntQuota(data, "demo-pro");
    expect(quota.learntQuota()).toEqual({ accounts: {} });
  });
});
