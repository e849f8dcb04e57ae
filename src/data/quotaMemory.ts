import { requestKey } from "./cacheKey";
import type { DataLayer } from "./dataLayer";
import type { LearntQuota } from "./quotaGuard";

/** Writes under way per data layer, so a caller (a test, a reload) can wait for what was learnt to be kept. */
const saving = new WeakMap<DataLayer, Promise<void>>();

function keyOf(owner: string): string {
  return requestKey({
    kind: "quota_standing",
    caller: owner,
    accountId: undefined,
    endpoint: "bulk_export_quota",
    params: {},
  });
}

function isLearntQuota(value: unknown): value is LearntQuota {
  if (typeof value !== "object" || value === null) return false;
  const { accounts, maxShare } = value as Partial<LearntQuota>;
  if (typeof accounts !== "object" || accounts === null) return false;
  if (maxShare !== undefined && !(maxShare > 0 && maxShare <= 1)) return false;
  return Object.values(accounts).every(
    (known) =>
      Number.isFinite(known?.limit) && Number.isFinite(known?.usage) && Number.isFinite(known?.learntAt),
  );
}

/**
 * Keeps what the sign-in's quota guard learns (the limit and usage a quota error named, with when, and the share
 * the person set) in the sign-in's cache, under its owner: a reload starts from it instead of forgetting a nearly
 * spent quota. A sign-out removes the cache; what the guard knew then is handed back as `atSignOut` when the same
 * person signs in again in this runtime, and kept anew, so a sign-out and sign-in hold no pull the guard let
 * through before. Called once per sign-in, before its cells run.
 */
export async function keepLearntQuota(
  data: DataLayer,
  owner: string,
  atSignOut?: LearntQuota,
): Promise<void> {
  const key = keyOf(owner);
  const kept = await data.cache.get<unknown>(key).catch(() => undefined);
  if (kept && isLearntQuota(kept.value)) data.quota.restore(kept.value);
  const save = () => {
    const written = (saving.get(data) ?? Promise.resolve()).then(async () => {
      // Best effort: a figure not kept is only learnt again from the service's next quota error.
      await data.cache.setMany([{ key, value: data.quota.learntQuota() }]).catch(() => 0);
    });
    saving.set(data, written);
  };
  data.quota.onLearnt(save);
  if (atSignOut) {
    data.quota.restore(atSignOut);
    save();
  }
}

/** Settles when what the guard learnt so far has been written. */
export function learntQuotaKept(data: DataLayer): Promise<void> {
  return saving.get(data) ?? Promise.resolve();
}
