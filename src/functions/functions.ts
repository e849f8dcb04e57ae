import { session } from "../session/session";
import { runCell } from "./cellCall";

/**
 * Lists the accounts you may act for, as a table with a header row [id, name].
 * @customfunction ACCOUNTS
 * @cancelable
 * @param invocation Custom function invocation.
 * @returns A header row and one row per account.
 */
export async function accounts(invocation: CustomFunctions.CancelableInvocation): Promise<unknown[][]> {
  return runCell(invocation, async (signal) => {
    const { client } = session.requireSignedIn();
    const list = await client.listAccounts(signal);
    return [["id", "name"], ...list.map((account) => [account.id, account.name])];
  });
}
