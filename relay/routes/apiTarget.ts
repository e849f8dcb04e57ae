/** Where the service's API sits under the relay's origin: `/api/v1/...` is `{service}/v1/...`. */
const API_BASE = ["api", "v1"];

/**
 * The request target split into the path below the API base (still undecoded: the operation table decodes and
 * matches it) and the query, or undefined when it is not under the API base. The base is compared decoded
 * segment by segment, so no spelling of it moves what follows.
 */
export function belowApiBase(url: string): { path: string; query: string } | undefined {
  const at = url.indexOf("?");
  const rawPath = at < 0 ? url : url.slice(0, at);
  const query = at < 0 ? "" : url.slice(at + 1);
  const segments = rawPath.split("/");
  if (segments[0] !== "") return undefined;
  for (const [index, expected] of API_BASE.entries()) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segments[index + 1] ?? "");
    } catch {
      return undefined;
    }
    if (decoded !== expected) return undefined;
  }
  return { path: `/${segments.slice(API_BASE.length + 1).join("/")}`, query };
}
