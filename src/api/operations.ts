/**
 * The operations of the contract as one table: what `contractOperations.ts` (generated from openapi.yaml) says
 * of each, plus the few decisions of this project about it (how long an answer stays fresh, which batcher
 * carries it, whether it spends the bulk export quota). Where an account, a comp set or a job is named is read
 * from the contract's parameters, never restated.
 *
 * `matchOperation` turns a request as it arrived (method, path below the API base, query, parsed JSON body)
 * into the operation and its typed values, or a refusal; `upstreamTarget` rebuilds the path and query from
 * those values. Nothing of the arriving spelling is ever passed on.
 */
import {
  CONTRACT_OPERATIONS,
  type ContractOperation,
  type ContractParameter,
  type OperationId,
} from "./contractOperations";

export type { OperationId } from "./contractOperations";

/** What a cached answer is, which decides how long it stays fresh. */
export type CacheKind =
  | "accounts"
  | "property"
  | "market"
  | "forecast"
  | "geo_search"
  | "property_search"
  | "lookup"
  | "comp_sets"
  | "market_survey"
  | "units"
  | "floor_plans"
  | "narrative"
  /** One property's export row of one finished day (RENT.HISTORY). */
  | "history"
  /** A bulk export job RENT.HISTORY submitted and still waits for: its id outlives the pane. */
  | "history_job"
  /** What a workbook cell's last calculation rested on (its as-of), so a reloaded pane still shows it. */
  | "cell_as_of"
  /** What the bulk export quota guard learnt of an account's quota, so a reload does not forget it. */
  | "quota_standing";

/** The batchers that carry many cells' questions as one request (src/data). */
export type BatchKind = "bulk_details" | "market_metrics" | "forecast";

/** This project's decisions about an operation; the contract's facts come from contractOperations.ts. */
export interface OperationPolicy {
  /** Cached under this kind (and its lifetime); absent for what is never cached. */
  readonly cacheKind?: CacheKind;
  /** The batcher that merges such requests. */
  readonly batch?: BatchKind;
  /** Each property the answer returns counts toward the account's bulk export quota (api-spec, quotas). */
  readonly spendsPropertyQuota?: boolean;
}

const POLICY: Record<OperationId, OperationPolicy> = {
  listAccounts: { cacheKind: "accounts" },
  listCompSets: { cacheKind: "comp_sets" },
  getMarketSurvey: { cacheKind: "market_survey" },
  listCompSetUnits: { cacheKind: "units" },
  listCompSetFloorPlans: { cacheKind: "floor_plans" },
  searchGeoBoundaries: { cacheKind: "geo_search" },
  searchProperties: { cacheKind: "property_search", spendsPropertyQuota: true },
  lookupProperties: { cacheKind: "lookup" },
  getBulkPropertyDetails: { cacheKind: "property", batch: "bulk_details", spendsPropertyQuota: true },
  exploreMarkets: { cacheKind: "market", batch: "market_metrics" },
  getMarketNarratives: { cacheKind: "narrative" },
  getPropertyForecasts: { cacheKind: "forecast", batch: "forecast" },
  getGeoBoundaryForecasts: { cacheKind: "forecast", batch: "forecast" },
  createBulkJob: {},
  listBulkJobs: {},
  getBulkJob: {},
  cancelBulkJob: {},
  getBulkJobResults: {},
};

/**
 * Whose data an operation reaches, read from the contract: an account named in the path, query or body; a comp
 * set or a job named in the path (each belongs to an account or to whoever submitted it); the caller's own
 * list of accounts or jobs; or nothing of anyone's.
 */
export type Reach =
  | { readonly kind: "account"; readonly in: "path" | "query" | "body" }
  | { readonly kind: "comp_set" }
  | { readonly kind: "job" }
  | { readonly kind: "own_accounts" }
  | { readonly kind: "own_jobs" };

export interface Operation extends ContractOperation, OperationPolicy {
  readonly operationId: OperationId;
  readonly reach: Reach;
  /**
   * Whether identical requests in flight may share one answer: a read whose answer is the same whoever sends
   * it, which is what makes it cacheable (every operation with a cache kind). Job submissions, cancellations,
   * job reads and downloads are not: each must reach the service as its sender's own.
   */
  readonly shareable: boolean;
}

const ACCOUNT = "account_id";
const COMP_SET = "comp_set_id";
const JOB = "job_id";

function reachOf(operation: ContractOperation): Reach {
  const named = (name: string) => operation.parameters.find((parameter) => parameter.name === name);
  const account = named(ACCOUNT);
  if (account) return { kind: "account", in: account.in };
  if (operation.body?.properties.includes(ACCOUNT)) return { kind: "account", in: "body" };
  if (named(COMP_SET)) return { kind: "comp_set" };
  if (named(JOB)) return { kind: "job" };
  // What remains lists the caller's own accounts or jobs, or submits a job the caller will own.
  return operation.path.startsWith("/accounts") ? { kind: "own_accounts" } : { kind: "own_jobs" };
}

export const OPERATIONS: readonly Operation[] = CONTRACT_OPERATIONS.map((operation) => ({
  ...(operation as ContractOperation),
  operationId: operation.operationId,
  ...POLICY[operation.operationId],
  reach: reachOf(operation as ContractOperation),
  shareable: POLICY[operation.operationId].cacheKind !== undefined,
}));

const BY_ID = new Map(OPERATIONS.map((operation) => [operation.operationId, operation]));

export function operationById(id: OperationId): Operation {
  return BY_ID.get(id) as Operation;
}

/** A request refused before it reaches the service: 400 bad value, 404 no such operation, 405 wrong method. */
export class RequestRefusal extends Error {
  constructor(
    readonly status: 400 | 404 | 405,
    message: string,
    readonly allow?: string[],
  ) {
    super(message);
    this.name = "RequestRefusal";
  }
}

export type ParameterValue = number | string | boolean | readonly (number | string)[];

/** A request of the contract with its values typed: the only thing the relay acts on and forwards. */
export interface OperationRequest {
  readonly operation: Operation;
  /** Path and query values by parameter name, parsed by the contract's types. */
  readonly values: Readonly<Record<string, ParameterValue>>;
  /** The parsed JSON body, for operations that take one. */
  readonly body?: Readonly<Record<string, unknown>>;
  /** The account the request names (path, query or body), when the contract names one. */
  readonly accountId?: number;
}

const DIGITS = /^[0-9]{1,15}$/;
const DECIMAL = /^-?[0-9]{1,15}(\.[0-9]{1,15})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function refuse(message: string): never {
  throw new RequestRefusal(400, message);
}

/** One value of a parameter, by its contract type; anything the type does not admit is a 400. */
function parseScalar(parameter: ContractParameter, type: string, text: string): number | string | boolean {
  const { name } = parameter;
  switch (type) {
    case "integer": {
      // Digits only: "103.0", "103e0", " 103", "+103" and "0x67" are not how an id is written.
      if (!DIGITS.test(text)) refuse(`${name} must be a whole number written as digits, not "${text}"`);
      const value = Number(text);
      if (parameter.minimum !== undefined && value < parameter.minimum)
        refuse(`${name} must be at least ${parameter.minimum}`);
      if (parameter.maximum !== undefined && value > parameter.maximum)
        refuse(`${name} must be at most ${parameter.maximum}`);
      return value;
    }
    case "number": {
      if (!DECIMAL.test(text)) refuse(`${name} must be a number written as digits, not "${text}"`);
      const value = Number(text);
      if (parameter.minimum !== undefined && value < parameter.minimum)
        refuse(`${name} must be at least ${parameter.minimum}`);
      return value;
    }
    case "boolean":
      if (text !== "true" && text !== "false") refuse(`${name} must be true or false`);
      return text === "true";
    default:
      if (parameter.format === "uuid" && !UUID.test(text)) refuse(`${name} must be a valid UUID`);
      if (parameter.pattern !== undefined && !new RegExp(parameter.pattern).test(text))
        refuse(`${name} has an invalid value: "${text}"`);
      if (parameter.enum !== undefined && !parameter.enum.includes(text))
        refuse(`${name} must be one of: ${parameter.enum.join(", ")}`);
      return text;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return refuse("The path is not validly percent-encoded.");
  }
}

/** The path parameters of `template` in the decoded `segments`, or undefined when the path is another's. */
function matchPath(template: string, segments: string[]): Record<string, string> | undefined {
  const parts = template.split("/");
  if (parts.length !== segments.length) return undefined;
  const values: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    const segment = segments[index] as string;
    const parameter = /^\{(.+)\}$/.exec(part)?.[1];
    if (parameter) {
      if (segment === "") return undefined;
      values[parameter] = segment;
    } else if (part !== segment) return undefined;
  }
  return values;
}

/** The query as name/value pairs, form-decoded (`+` is a space) as every server reads a query string. */
function queryPairs(query: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const piece of query.split("&")) {
    if (piece === "") continue;
    const at = piece.indexOf("=");
    const [name, value] = at < 0 ? [piece, ""] : [piece.slice(0, at), piece.slice(at + 1)];
    const decode = (text: string) => {
      try {
        return decodeURIComponent(text.replace(/\+/g, " "));
      } catch {
        return refuse("The query is not validly percent-encoded.");
      }
    };
    pairs.push([decode(name), decode(value)]);
  }
  return pairs;
}

function parseQuery(operation: Operation, query: string): Record<string, ParameterValue> {
  const values: Record<string, ParameterValue> = {};
  const byName = new Map(
    operation.parameters.filter((parameter) => parameter.in === "query").map((p) => [p.name, p]),
  );
  const seen = new Map<string, string[]>();
  for (const [name, value] of queryPairs(query)) {
    if (!byName.has(name))
      refuse(
        `${operation.operationId} takes no parameter "${name}"` +
          (byName.size > 0 ? ` (it takes: ${[...byName.keys()].join(", ")})` : ""),
      );
    seen.set(name, [...(seen.get(name) ?? []), value]);
  }
  for (const [name, texts] of seen) {
    const parameter = byName.get(name) as ContractParameter;
    if (parameter.type === "array") {
      if (parameter.maxItems !== undefined && texts.length > parameter.maxItems)
        refuse(`${name} takes at most ${parameter.maxItems} values`);
      values[name] = texts.map((text) => parseScalar(parameter, parameter.items ?? "string", text)) as (
        number | string
      )[];
    } else {
      if (texts.length > 1) refuse(`${name} must be given once`);
      values[name] = parseScalar(parameter, parameter.type, texts[0] as string);
    }
  }
  for (const parameter of byName.values())
    if (parameter.required && !(parameter.name in values)) refuse(`${parameter.name} is required`);
  return values;
}

function parseBody(operation: Operation, body: unknown): Record<string, unknown> | undefined {
  if (!operation.body) return undefined;
  if (body === undefined || body === null) {
    if (operation.body.required) refuse(`${operation.operationId} needs a JSON body`);
    return undefined;
  }
  if (typeof body !== "object" || Array.isArray(body)) refuse("The body must be a JSON object");
  const object = body as Record<string, unknown>;
  for (const name of operation.body.requiredProperties)
    if (object[name] === undefined) refuse(`${name} is required`);
  return object;
}

function accountOf(
  operation: Operation,
  values: Record<string, ParameterValue>,
  body?: Record<string, unknown>,
) {
  if (operation.reach.kind !== "account") return undefined;
  const value = operation.reach.in === "body" ? body?.[ACCOUNT] : values[ACCOUNT];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)
    refuse(`${ACCOUNT} must be a positive whole number`);
  return value;
}

/**
 * The operation a request is, with its values parsed by the contract's types. `path` is below the API base
 * (`/accounts/100/comp_sets`), undecoded as it arrived; `query` is the raw query string without its `?`.
 */
export function matchOperation(
  method: string,
  path: string,
  query: string,
  body?: unknown,
): OperationRequest {
  if (path.includes("#") || query.includes("#")) refuse("A request cannot carry a fragment (#).");
  const segments = path.split("/").map(decodeSegment);
  const matches = OPERATIONS.map((operation) => ({
    operation,
    path: matchPath(operation.path, segments),
  })).filter((match) => match.path !== undefined);
  if (matches.length === 0) throw new RequestRefusal(404, "No operation of the service has this path.");
  const match = matches.find((candidate) => candidate.operation.method === method.toUpperCase());
  if (!match)
    throw new RequestRefusal(
      405,
      `This path takes ${matches.map((candidate) => candidate.operation.method).join(", ")}, not ${method}.`,
      matches.map((candidate) => candidate.operation.method),
    );
  const { operation } = match;
  const values: Record<string, ParameterValue> = {};
  for (const [name, text] of Object.entries(match.path as Record<string, string>)) {
    const parameter = operation.parameters.find(
      (p) => p.name === name && p.in === "path",
    ) as ContractParameter;
    values[name] = parseScalar(parameter, parameter.type, text);
  }
  Object.assign(values, parseQuery(operation, query));
  const parsedBody = parseBody(operation, body);
  const accountId = accountOf(operation, values, parsedBody);
  return { operation, values, body: parsedBody, accountId };
}

/**
 * The property ids a bulk details request names, in either of the contract's spellings (`property_ids` as a
 * comma list, or `property_ids[]` repeated); "both" when it uses both at once, which is not one question.
 */
export function bulkDetailsIds(request: OperationRequest): number[] | "both" {
  const listed = request.values.property_ids as string | undefined;
  const repeated = request.values["property_ids[]"] as number[] | undefined;
  if (listed !== undefined && repeated !== undefined) return "both";
  return repeated ?? (listed ?? "").split(",").filter(Boolean).map(Number);
}

/** Brackets stay as the contract writes names (`filter[bedroom_count]`); everything else is escaped. */
const encodeName = (name: string) => encodeURIComponent(name).replace(/%5B/g, "[").replace(/%5D/g, "]");

/** The path and query to send upstream, rebuilt from the typed values in the contract's parameter order. */
export function upstreamTarget(request: OperationRequest): string {
  const { operation, values } = request;
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(values[name])),
  );
  const query: string[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in !== "query" || !(parameter.name in values)) continue;
    const value = values[parameter.name] as ParameterValue;
    for (const item of Array.isArray(value) ? value : [value])
      query.push(`${encodeName(parameter.name)}=${encodeURIComponent(String(item))}`);
  }
  return query.length > 0 ? `${path}?${query.join("&")}` : path;
}

/** The request's body as sent upstream: re-serialised from the parsed value. */
export function upstreamBody(request: OperationRequest): string | undefined {
  return request.body === undefined ? undefined : JSON.stringify(request.body);
}

/**
 * The operation a request to the service is (method and path below the API base, query ignored), for counts
 * and metrics that name operations rather than spellings; undefined for anything the contract does not have.
 */
export function operationIdOf(method: string, path: string): OperationId | undefined {
  let segments: string[];
  try {
    segments = path
      .split("?")[0]!
      .split("/")
      .map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  return OPERATIONS.find(
    (operation) =>
      operation.method === method.toUpperCase() && matchPath(operation.path, segments) !== undefined,
  )?.operationId;
}
