import { operationIdOf } from "../../src/api/operations";

/**
 * The operation a request to the service is counted under in the status page and the metrics: its
 * `operationId` in the contract's table (e.g. "listCompSets"), so the label set stays bounded and names no
 * account, comp set or job; the token request and anything outside the table count as "other".
 */
export function operationLabel(method: string, pathname: string): string {
  const below = pathname.indexOf("/v1/");
  return (below >= 0 && operationIdOf(method, pathname.slice(below + "/v1".length))) || "other";
}
