import type { UserRecord } from "../store/relayStore";

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function mayUse(user: UserRecord, accountId: number): boolean {
  return user.accounts.includes(accountId);
}

export function refusal(user: UserRecord, accountId: number): string {
  const own = user.accounts.length > 0 ? user.accounts.join(", ") : "none";
  return `Account ${accountId} is not one the team relay gives ${user.name} (yours: ${own}). Ask your relay admin to add it.`;
}

/** The comp set ids in an answer of GET /accounts/{id}/comp_sets. */
export function compSetIds(body: Buffer): number[] {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { data?: { id?: unknown }[] };
    return (parsed.data ?? []).map((item) => Number(item.id)).filter((id) => Number.isSafeInteger(id));
  } catch {
    return [];
  }
}
