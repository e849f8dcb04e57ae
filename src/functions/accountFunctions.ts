import { COMP_SETS } from "../data/endpoints";
import { recordsToTable } from "../tables/records";
import { runCell } from "./cellCall";
import { cellContext } from "./cellContext";
import { spillFromTable } from "./shape/spill";

/**
 * Lists the accounts you may act for, as a table with a header row [id, name].
 * @customfunction ACCOUNTS
 * @helpurl https://localhost:3000/help.html#rent-accounts
 * @cancelable
 * @requiresAddress
 * @param invocation Custom function invocation.
 * @returns A header row and one row per account.
 */
export async function accounts(invocation: CustomFunctions.CancelableInvocation): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const { data, call } = cellContext(cellSignal);
    const list = (await data.accounts(call)).value;
    return [["id", "name"], ...list.map((account) => [account.id, account.name])];
  });
}

/**
 * Lists the comp sets of an account: id, name, category, the properties in it and its flags.
 * @customfunction COMPSETS
 * @helpurl https://localhost:3000/help.html#rent-compsets
 * @cancelable
 * @requiresAddress
 * @param [account] Account id; the account chosen in the Rent Market pane when omitted.
 * @param [invocation] Custom function invocation.
 * @returns A header row and one row per comp set.
 */
export async function compSets(
  account?: unknown,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return runCell(invocation, async (cellSignal) => {
    const { data, call } = cellContext(cellSignal, account);
    const sets = (await data.read(COMP_SETS, {}, call)).value.data;
    const records = sets.map((set) => ({
      id: Number(set.id),
      name: set.attributes.name,
      category: set.attributes.category,
      property_count: set.attributes.property_ids.length,
      property_ids: set.attributes.property_ids,
      subject_property_ids: set.attributes.subject_property_ids,
      market_survey: set.attributes.market_survey,
      value_add: set.attributes.value_add,
      custom_property: set.attributes.custom_property,
    }));
    return spillFromTable(recordsToTable(records), `Account ${call.accountId} has no comp sets.`);
  });
}
