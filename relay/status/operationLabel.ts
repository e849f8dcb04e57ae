/**
 * The operation a request to the service is counted under in the metrics: the method and the contract
 * path, every id written `{id}` (e.g. "GET /v1/accounts/{id}/comp_sets"), so the label set stays bounded and
 * names no account, comp set or job. This is the one place to read the operations table's `operationId`
 * instead, once the table exists.
 */
export function operationLabel(method: string, pathname: string): string {
  const below = pathname.indexOf("/v1/");
  const path = below >= 0 ? pathname.slice(below) : pathname;
  // A contract segment is a lower-case word (or the version); anything else in a path is a value.
  const template = path
    .split("/")
    .map((segment) => (segment === "" || /^(v\d+|[a-z_]+)$/.test(segment) ? segment : "{id}"))
    .join("/");
  return `${method.toUpperCase()} ${template}`;
}
