import type { OperationId } from "../../src/api/operations";
import { sentOperationId } from "../../src/api/sentOperation";

/** What the token request and anything outside the contract's table count as. */
export const OTHER = "other";

/**
 * The operation a request to the service is counted under in the status page and the metrics: its
 * `operationId` in the contract's table (e.g. "listCompSets"), so the label set stays bounded and names no
 * account, comp set or job; the token request and anything outside the table count as "other".
 */
export function operationLabel(operationId: OperationId | undefined): string {
  return operationId ?? OTHER;
}

/** The label of a request sent to `url`, read from the table by its method and path below `apiBase`. */
export function sentOperationLabel(method: string, url: URL, apiBase: string): string {
  return operationLabel(sentOperationId(method, url, apiBase));
}
