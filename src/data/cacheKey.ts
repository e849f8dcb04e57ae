import type { CacheKind } from "./cachePolicy";

/** JSON with object keys sorted and undefined members dropped, so equal requests always give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value))
    return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(",")}]`;
  const members = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`);
  return `{${members.join(",")}}`;
}

/** Everything that decides the answer of a request. */
export interface RequestIdentity {
  kind: CacheKind;
  /**
   * Who asks: the client id (tiers differ per client, so a pro and a pro-plus sign-in see different fields
   * for the same account).
   */
  caller: string;
  accountId: number | undefined;
  /** The contract path, e.g. `/properties/bulk_details`. */
  endpoint: string;
  params: unknown;
  /** What makes the answer time-dependent, e.g. the current month for forecasts; omitted when nothing does. */
  period?: string;
}

/** The cache and coalescing key of a request: its kind first (for clearing by kind), then the rest. */
export function requestKey(identity: RequestIdentity): string {
  const { kind, caller, accountId, endpoint, params, period } = identity;
  return `${kind}|${canonicalJson([caller, accountId ?? null, endpoint, params, period ?? null])}`;
}

/** The kind a key was built for. */
export function kindOfKey(key: string): CacheKind {
  return key.slice(0, key.indexOf("|")) as CacheKind;
}

/** Whether a key was built for `caller`: keys list the caller first, right after the kind. */
export function isKeyOf(key: string, caller: string): boolean {
  const start = key.indexOf("|") + 1;
  const prefix = `[${JSON.stringify(caller)},`;
  return start > 0 && key.startsWith(prefix, start);
}
