import { callerOf, inputOf, type OperationHandlers } from "../context";
import { accountsForClient } from "../data/clients";
import { paginate } from "../http/pagination";

/** GET /v1/accounts: the accounts the calling client may act for. */
export function accountHandlers(): Pick<OperationHandlers, "listAccounts"> {
  return {
    listAccounts: (request) => {
      const { query } = inputOf(request);
      return paginate(
        accountsForClient(callerOf(request).client.clientId),
        query.page as number,
        query.per_page as number,
      );
    },
  };
}
