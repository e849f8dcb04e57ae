import type { UserRecords } from "../store/relayStore";
import { issueKey, newUserId, ownerIdOf } from "./personalKeys";

/**
 * Creates a key for `name` and stores only its hash; the key itself is returned to be shown once. Another key
 * of a name that holds keys is the same person's (same id, same jobs); a name with none (never issued, or
 * revoked) is a new person.
 */
export async function addUser(
  users: UserRecords,
  name: string,
  accounts: number[],
  admin: boolean,
): Promise<string> {
  const holder = (await users.list()).find((user) => user.name === name);
  const issued = issueKey(name, accounts, admin, new Date(), holder ? ownerIdOf(holder) : newUserId());
  await users.put(issued.record);
  return issued.key;
}

export async function revokeUser(users: UserRecords, name: string): Promise<number> {
  return users.removeByName(name);
}

/** One line per key: who, which accounts, admin or not, since when. */
export async function describeUsers(users: UserRecords): Promise<string[]> {
  return (await users.list()).map(
    (user) =>
      `${user.name}  accounts ${user.accounts.join(",") || "none"}${user.admin ? "  admin" : ""}  since ${user.createdAt}`,
  );
}
