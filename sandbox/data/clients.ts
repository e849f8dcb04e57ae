import type { Tier } from "../../src/api/tiers";

/**
 * The fixed demo clients and their accounts. Documented in sandbox/README.md; tests compare the
 * service's answers against these.
 */

export interface DemoClient {
  clientId: string;
  clientSecret: string;
  tier: Tier;
  accountIds: number[];
}

export interface Account {
  id: number;
  name: string;
}

/** One account is shared by every demo client, so isolation tests can tell "shared" from "own". */
export const SHARED_ACCOUNT_ID = 100;

export const ACCOUNTS: readonly Account[] = [
  { id: SHARED_ACCOUNT_ID, name: "Sandbox Shared Portfolio" },
  { id: 101, name: "Base Realty Partners" },
  { id: 102, name: "Pro Residential Group" },
  { id: 103, name: "ProPlus Capital Advisors" },
];

export const DEMO_CLIENTS: readonly DemoClient[] = [
  {
    clientId: "demo-base",
    clientSecret: "sandbox-secret-base",
    tier: "base",
    accountIds: [SHARED_ACCOUNT_ID, 101],
  },
  {
    clientId: "demo-pro",
    clientSecret: "sandbox-secret-pro",
    tier: "pro",
    accountIds: [SHARED_ACCOUNT_ID, 102],
  },
  {
    clientId: "demo-proplus",
    clientSecret: "sandbox-secret-proplus",
    tier: "pro-plus",
    accountIds: [SHARED_ACCOUNT_ID, 103],
  },
];

export function findClient(clientId: string): DemoClient | undefined {
  return DEMO_CLIENTS.find((client) => client.clientId === clientId);
}

/** The accounts a client may act for, in id order. Empty for an unknown client id. */
export function accountsForClient(clientId: string): Account[] {
  const client = findClient(clientId);
  if (!client) return [];
  return ACCOUNTS.filter((account) => client.accountIds.includes(account.id));
}

export function clientMayActFor(clientId: string, accountId: number): boolean {
  return findClient(clientId)?.accountIds.includes(accountId) ?? false;
}
