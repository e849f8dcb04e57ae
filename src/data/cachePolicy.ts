import type { ContractFreshness } from "../api/contractOperations";
import { operationById, OPERATIONS, type CacheKind } from "../api/operations";

export type { CacheKind } from "../api/operations";

/** Kinds of the add-in's own, which no operation answers: they change as this project decides. */
const OWN_KINDS = {
  // A finished day's figures: as the export file they came from (getBulkJobResults).
  history: operationById("getBulkJobResults").freshness as ContractFreshness,
  // A job older than a day is past any bound RENT.HISTORY waits for one.
  history_job: { changes: ["any_time"], maxAgeMinutes: 24 * 60 },
  // True of its cell until the cell is calculated again, which writes a new one.
  cell_as_of: { changes: ["never"] },
  // Until the service says otherwise (its next quota error) or the person signs out; the pane says when it was learnt.
  quota_standing: { changes: ["never"] },
} as const satisfies Partial<Record<CacheKind, ContractFreshness>>;

type ServiceKind = Exclude<CacheKind, keyof typeof OWN_KINDS>;

/** Each service kind's freshness as the contract's operations state it (x-freshness); one kind, one schedule. */
function freshnessOfServiceKinds(): Record<ServiceKind, ContractFreshness> {
  const byKind: Partial<Record<CacheKind, ContractFreshness>> = {};
  for (const operation of OPERATIONS) {
    if (!operation.cacheKind) continue;
    if (!operation.freshness) throw new Error(`${operation.operationId} is cached but has no x-freshness`);
    const known = byKind[operation.cacheKind];
    if (known && JSON.stringify(known) !== JSON.stringify(operation.freshness))
      throw new Error(`Operations cached as ${operation.cacheKind} disagree on their x-freshness`);
    byKind[operation.cacheKind] = operation.freshness;
  }
  return byKind as Record<ServiceKind, ContractFreshness>;
}

/** When each kind's answers can change: the contract's schedule per operation, and the add-in's own kinds. */
export const FRESHNESS_BY_KIND: Readonly<Record<CacheKind, ContractFreshness>> = {
  ...freshnessOfServiceKinds(),
  ...OWN_KINDS,
};
