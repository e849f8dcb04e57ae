import { AsyncLocalStorage } from "node:async_hooks";

/** Who a piece of work is done for, so the upstream gate can share the budget fairly between people. */
export interface RelayRequestContext {
  user: string;
}

export const requestContext = new AsyncLocalStorage<RelayRequestContext>();

/** The user of the current request; work started by the relay itself counts as "relay". */
export function currentUser(): string {
  return requestContext.getStore()?.user ?? "relay";
}
