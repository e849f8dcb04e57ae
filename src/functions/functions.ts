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
    const { data } = session.requireSignedIn();
    const list = (await data.accounts({ signal })).value;
    return [["id", "name"], ...list.map((account) => [account.id, account.name])];
  });
}
