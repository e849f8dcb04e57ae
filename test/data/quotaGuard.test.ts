import { ApiError } from "../../src/api/errors";
import { BulkExportQuotaGuard } from "../../src/data/quotaGuard";

const ACCOUNT = 100;
const quotaError = (limit: number, usage?: number) =>
  new ApiError("quota_exceeded", "used up", {
    quotaLimit: limit,
    ...(usage === undefined ? {} : { quotaUsage: usage }),
  });

describe("BulkExportQuotaGuard at its edges", () => {
  it("lets a pull of exactly a tenth of the assumed 5,000 through, and holds one more", () => {
    const guard = new BulkExportQuotaGuard();
    expect(guard.standing(ACCOUNT)).toEqual({ limit: 5_000, limitFrom: "assumed", spent: 0, perPull: 500 });
    expect(() => guard.check(ACCOUNT, 500)).not.toThrow();
    expect(() => guard.check(ACCOUNT, 501)).toThrow(
      "Held before spending: this pull would spend up to 501 properties of the bulk export quota, more than the 10 % one pull may spend (500 of 5,000 (assumed: the service has not named it)).",
    );
  });

  it("lets a pull of exactly what is left through once the service named it, and holds one more", () => {
    let now = 1_000;
    const guard = new BulkExportQuotaGuard({ maxShare: 1 }, () => now);
    guard.learn(ACCOUNT, quotaError(300, 250));
    guard.spent(ACCOUNT, 20);
    expect(guard.standing(ACCOUNT)).toMatchObject({
      limit: 300,
      limitFrom: "service",
      left: 30,
      learntAt: 1_000,
    });
    expect(() => guard.check(ACCOUNT, 30)).not.toThrow();
    expect(() => guard.check(ACCOUNT, 31)).toThrow(/more than the 30 left of 300\./);
    now = 2_000;
    // A quota error without usage means the quota is spent.
    guard.learn(ACCOUNT, quotaError(300));
    expect(guard.standing(ACCOUNT).left).toBe(0);
  });

  it("passes a held pull once it is allowed, and holds the next one of its size", () => {
    const guard = new BulkExportQuotaGuard();
    expect(() => guard.check(ACCOUNT, 800)).toThrow(/800 properties/);
    expect(guard.allowHeld()).toMatchObject({ accountId: ACCOUNT, properties: 800 });
    expect(() => guard.check(ACCOUNT, 300)).not.toThrow();
    expect(() => guard.check(ACCOUNT, 500)).not.toThrow();
    expect(() => guard.check(ACCOUNT, 800)).toThrow(/800 properties/);
    // Another account has no allowance of its own.
    expect(() => guard.check(ACCOUNT + 1, 800)).toThrow(/800 properties/);
  });

  it("keeps what it learnt itself over an older figure restored from before a reload", () => {
    let now = 5_000;
    const guard = new BulkExportQuotaGuard({}, () => now);
    guard.learn(ACCOUNT, quotaError(1_000, 900));
    guard.restore({ accounts: { [ACCOUNT]: { limit: 300, usage: 10, learntAt: 4_000 } }, maxShare: 0.5 });
    expect(guard.standing(ACCOUNT)).toMatchObject({ limit: 1_000, left: 100 });
    expect(guard.current.maxShare).toBe(0.5);
    now = 6_000;
    guard.restore({ accounts: { [ACCOUNT]: { limit: 2_000, usage: 1_500, learntAt: 7_000 } } });
    expect(guard.standing(ACCOUNT)).toMatchObject({ limit: 2_000, left: 500 });
  });

  it("counts spending after a restore on top of the restored usage, and keeps it", () => {
    const guard = new BulkExportQuotaGuard();
    guard.spent(ACCOUNT, 40);
    guard.restore({ accounts: { [ACCOUNT]: { limit: 300, usage: 100, learntAt: 1 } } });
    guard.spent(ACCOUNT, 25);
    expect(guard.standing(ACCOUNT).left).toBe(175);
    expect(guard.learntQuota()).toEqual({ accounts: { [ACCOUNT]: { limit: 300, usage: 125, learntAt: 1 } } });
  });
});
