/**
 * What a request on its way to the service is, for decisions taken about it after it was built (whether
 * identical ones may share an answer, whose quota it spends, whom a batched call serves, how it is counted).
 * Every such decision reads the table of operations (operations.ts), never the text of a URL: a spelling of a
 * path cannot move a request from one decision to another.
 */
import {
  matchOperation,
  operationIdOf,
  OPERATIONS,
  RequestRefusal,
  type OperationId,
  type OperationRequest,
} from "./operations";

/** The path of `url` below `apiBase` (`{serviceUrl}/v1`), as sent; undefined for a URL elsewhere. */
export function pathBelowBase(url: URL, apiBase: string): string | undefined {
  const base = new URL(apiBase);
  if (url.origin !== base.origin) return undefined;
  const basePath = base.pathname.replace(/\/+$/, "");
  return url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : undefined;
}

const isParameter = (part: string) => part.startsWith("{") && part.endsWith("}");

/**
 * The path as the table writes it, for any spelling a server may read as that path: segments decoded, empty
 * ones (a doubled or trailing slash) dropped, the table's fixed words compared without case. Undefined when
 * no operation has such a path.
 */
function tablePath(path: string): string | undefined {
  let segments: string[];
  try {
    segments = path
      .split("/")
      .map((segment) => decodeURIComponent(segment))
      .filter((segment) => segment !== "");
  } catch {
    return undefined;
  }
  for (const operation of OPERATIONS) {
    const parts = operation.path.split("/").slice(1);
    if (parts.length !== segments.length) continue;
    const same = parts.every(
      (part, index) => isParameter(part) || part.toLowerCase() === segments[index]?.toLowerCase(),
    );
    if (same)
      return `/${parts
        .map((part, index) => (isParameter(part) ? encodeURIComponent(segments[index] as string) : part))
        .join("/")}`;
  }
  return undefined;
}

function parsedBody(body: string | undefined): unknown {
  if (body === undefined || body === "") return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The operation a request sent to `url` is, with its values typed by the contract (matchOperation), or
 * undefined for anything outside the table: the token request, a download URL, another path, or values the
 * contract refuses.
 */
export function sentOperation(
  method: string,
  url: URL,
  apiBase: string,
  body?: string,
): OperationRequest | undefined {
  const below = pathBelowBase(url, apiBase);
  const path = below === undefined ? undefined : tablePath(below);
  if (path === undefined) return undefined;
  try {
    return matchOperation(method, path, url.search.slice(1), parsedBody(body));
  } catch (error) {
    if (error instanceof RequestRefusal) return undefined;
    throw error;
  }
}

/** The operation a request sent to `url` is by its method and path alone (to count it under). */
export function sentOperationId(method: string, url: URL, apiBase: string): OperationId | undefined {
  const below = pathBelowBase(url, apiBase);
  const path = below === undefined ? undefined : tablePath(below);
  return path === undefined ? undefined : operationIdOf(method, path);
}
