/**
 * The one check of a request against the contract, for the sandbox (which answers what the service would) and the
 * relay (which refuses at its door what the service would refuse, before a request of the team's budget is spent):
 * ajv over the contract's parameter and body schemas (src/api/contractRequests.ts, generated from openapi.yaml),
 * worded as the service words its 400s, and the contract's id limit per call (`x-max-ids`) over every id list.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import {
  CONTRACT_REQUEST_COMPONENTS,
  CONTRACT_REQUESTS,
  type ContractRequest,
  type ContractRequestParameter,
} from "./contractRequests";

type JsonObject = Record<string, unknown>;

/** Schema id under which the contract's components are registered with ajv, so `#/components/...` refs resolve. */
const CONTRACT_ID = "openapi.yaml";

function createAjv(coerceTypes: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    // OpenAPI adds keywords (example, x-*) that plain JSON Schema does not know.
    strict: false,
    // One error is enough for a message and keeps huge invalid arrays cheap to reject.
    allErrors: false,
    // parentSchema in errors lets messages read `x-error-messages` next to the failing keyword.
    verbose: true,
    useDefaults: true,
    // Query and path values arrive as strings; "array" also wraps a single repeated-style value.
    coerceTypes: coerceTypes ? "array" : false,
  });
  addFormats(ajv);
  ajv.addSchema(CONTRACT_REQUEST_COMPONENTS, CONTRACT_ID, undefined, false);
  return ajv;
}

/**
 * The two ajv instances and the operations' validators compiled so far. Compiling is most of a second of CPU
 * for the operations a test file uses, and validators are pure functions of the contract: a jest worker lends a
 * map that outlives each test file (test/support/workerScope.ts, the one the sandbox keeps its parse in), so
 * its files share them; a sandbox or relay process compiles each operation's once, on its first request.
 */
interface Validators {
  coercing: Ajv2020;
  strict: Ajv2020;
  /** By operation id; an operation's are compiled on its first request. */
  compiled: Map<string, CompiledOperation>;
}

const VALIDATORS_KEY = "src/api/requestValidator validators";
const kept: Map<string, unknown> =
  (globalThis as { sandboxContracts?: Map<string, unknown> }).sandboxContracts ?? new Map();

function validators(): Validators {
  let made = kept.get(VALIDATORS_KEY) as Validators | undefined;
  if (!made) {
    made = { coercing: createAjv(true), strict: createAjv(false), compiled: new Map() };
    kept.set(VALIDATORS_KEY, made);
  }
  return made;
}

/** Follows a local JSON pointer such as `#/components/schemas/GeoType` in the contract's components. */
function resolvePointer(pointer: string): unknown {
  return pointer
    .slice(2)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>(
      (node, segment) => (node as JsonObject | undefined)?.[segment],
      CONTRACT_REQUEST_COMPONENTS,
    );
}

/** Rewrites local refs so a schema built outside the document still resolves against it. */
function qualifyRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(qualifyRefs);
  if (node && typeof node === "object") {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === "$ref" && typeof value === "string" && value.startsWith("#")
          ? CONTRACT_ID + value
          : qualifyRefs(value),
      ]),
    );
  }
  return node;
}

/** Renders an instance path the way the service names nested parameters: `filters[collected_at_gte]`. */
export function renderPath(instancePath: string, property?: string): string {
  const segments = instancePath.split("/").filter(Boolean);
  if (property !== undefined) segments.push(property);
  const [first, ...rest] = segments.map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (first === undefined) return "request body";
  return first + rest.map((segment) => `[${segment}]`).join("");
}

function schemaOf(node: unknown): JsonObject | undefined {
  if (!node || typeof node !== "object") return undefined;
  const ref = (node as JsonObject).$ref;
  if (typeof ref === "string") {
    const local = ref.startsWith(CONTRACT_ID) ? ref.slice(CONTRACT_ID.length) : ref;
    return schemaOf(resolvePointer(local));
  }
  return node as JsonObject;
}

function customTemplate(schema: JsonObject | undefined, keyword: string): string | undefined {
  const messages = schema?.["x-error-messages"] as Record<string, string> | undefined;
  return messages?.[keyword];
}

function fillTemplate(template: string, values: { path: string; value: unknown; property?: string }): string {
  return template
    .replace(/\{path\}/g, values.path)
    .replace(/\{property\}/g, values.property ?? "")
    .replace(/\{value\}/g, typeof values.value === "string" ? values.value : JSON.stringify(values.value));
}

const FORMAT_MESSAGES: Record<string, string> = {
  date: "must be a valid ISO 8601 date",
  "date-time": "must be a valid ISO 8601 timestamp",
  uuid: "must be a valid UUID",
  uri: "must be a valid URL",
};

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function defaultMessage(error: ErrorObject, path: string): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${path} is required`;
    case "additionalProperties":
    case "unevaluatedProperties":
      return `Unknown parameter: ${path}`;
    case "type":
      return `${path} must be ${String(params.type).split(",").map(article).join(" or ")}`;
    case "format":
      return `${path} ${FORMAT_MESSAGES[String(params.format)] ?? `must match format ${String(params.format)}`}`;
    case "enum":
      return `${path} must be one of: ${(params.allowedValues as unknown[]).join(", ")}`;
    case "const":
      return `${path} must be ${String(params.allowedValue)}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `${path} must be ${String(params.comparison)} ${String(params.limit)}`;
    case "minItems":
      return `${path} must contain at least ${String(params.limit)} item(s)`;
    case "maxItems":
      return `${path} must contain at most ${String(params.limit)} items`;
    case "minLength":
      return params.limit === 1 ? `${path} must not be empty` : `${path} is too short`;
    case "maxLength":
      return `${path} must be at most ${String(params.limit)} characters long`;
    case "pattern":
      return `${path} has an invalid format`;
    case "uniqueItems":
      return `${path} must not contain duplicates`;
    default:
      return `${path} is invalid`;
  }
}

/** Turns one ajv error into the service's message, preferring the contract's own wording. */
export function describeError(error: ErrorObject): { message: string; custom: boolean } {
  const params = error.params as Record<string, unknown>;
  const property =
    error.keyword === "required"
      ? String(params.missingProperty)
      : error.keyword === "additionalProperties"
        ? String(params.additionalProperty)
        : error.keyword === "unevaluatedProperties"
          ? String(params.unevaluatedProperty)
          : undefined;
  const path = renderPath(error.instancePath, property);
  const parent = schemaOf(error.parentSchema);
  const ownSchema =
    error.keyword === "required"
      ? schemaOf((parent?.properties as JsonObject | undefined)?.[property ?? ""])
      : undefined;
  const template = customTemplate(ownSchema, error.keyword) ?? customTemplate(parent, error.keyword);
  if (template)
    return { message: fillTemplate(template, { path, value: error.data, property }), custom: true };
  return { message: defaultMessage(error, path), custom: false };
}

/**
 * Picks the error a person should read: a contract-worded one when any (the deepest, so a bad
 * element of a list is named rather than the list), else the first.
 */
function messagesFrom(errors: ErrorObject[] | null | undefined): string[] {
  const described = (errors ?? [])
    .filter((error) => error.keyword !== "oneOf" && error.keyword !== "anyOf")
    .map((error) => ({ ...describeError(error), depth: error.instancePath.split("/").length }));
  const custom = described.filter((entry) => entry.custom).sort((a, b) => b.depth - a.depth)[0];
  const chosen = custom ?? described[0];
  return [chosen?.message ?? "The request is invalid"];
}

/** Deeper bodies are refused before anything recursive (structuredClone, ajv) walks them. */
export const MAX_BODY_DEPTH = 64;

/** Whether a parsed JSON value nests objects or arrays deeper than the limit; iterative, so any depth is safe. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let entry = pending.pop(); entry; entry = pending.pop()) {
    const [node, depth] = entry;
    if (node === null || typeof node !== "object") continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

export interface ValidatedInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

export type ValidationResult =
  { ok: true; value: ValidatedInput } | { ok: false; status: 400 | 415; errors: string[] };

interface CompiledOperation {
  params: ValidateFunction;
  query: ValidateFunction;
  bodies: Map<string, ValidateFunction>;
}

function objectSchemaFor(request: ContractRequest, location: "query" | "path"): JsonObject {
  const parameters = request.parameters.filter((parameter) => parameter.in === location);
  return qualifyRefs({
    type: "object",
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    additionalProperties: false,
    "x-error-messages": { additionalProperties: "Unknown query parameter: {property}" },
  }) as JsonObject;
}

/** Validators are compiled on an operation's first request, so a sandbox starts without compiling all of them. */
function compile(operationId: string, request: ContractRequest): CompiledOperation {
  const { coercing, strict, compiled } = validators();
  const existing = compiled.get(operationId);
  if (existing) return existing;
  const result: CompiledOperation = {
    params: coercing.compile(objectSchemaFor(request, "path")),
    query: coercing.compile(objectSchemaFor(request, "query")),
    bodies: new Map(
      Object.entries(request.body?.schemas ?? {}).map(([type, schema]) => [
        type,
        strict.compile(qualifyRefs(schema) as JsonObject),
      ]),
    ),
  };
  compiled.set(operationId, result);
  return result;
}

/** Whether a parameter carries ids: a repeated list of whole numbers, or a comma list of digits. */
function carriesIds(parameter: ContractRequestParameter): boolean {
  const { schema } = parameter;
  if (schema.type === "array") return (schema.items as JsonObject | undefined)?.type === "integer";
  return schema.type === "string" && schema.pattern === ID_LIST_PATTERN;
}

/** How the contract writes a comma list of ids (bulk details' `property_ids`). */
const ID_LIST_PATTERN = "^[0-9]+(,[0-9]+)*$";

/**
 * The refusal of a call naming more distinct ids than the operation's `x-max-ids`, counted over all its id
 * lists together (the comma list and the repeated form name ids of one call alike); undefined within it.
 */
function beyondMaxIds(request: ContractRequest, query: JsonObject): string | undefined {
  if (request.maxIds === undefined) return undefined;
  const ids = new Set<string>();
  let named = "";
  for (const parameter of request.parameters) {
    if (parameter.in !== "query" || !carriesIds(parameter) || query[parameter.name] === undefined) continue;
    const value = query[parameter.name];
    const items = Array.isArray(value) ? value.map(String) : String(value).split(",");
    for (const id of items) ids.add(String(Number(id)));
    named ||= parameter.name.replace(/\[\]$/, "");
  }
  if (ids.size <= request.maxIds) return undefined;
  return `${named} must contain at most ${request.maxIds} ids`;
}

/**
 * Validates a request's path, query and body against the contract. Returns copies with types
 * coerced and defaults applied; the original request objects are left as they came.
 */
export function validateRequest(
  operationId: string,
  input: { params: unknown; query: unknown; body: unknown; contentType: string | undefined },
): ValidationResult {
  const request = CONTRACT_REQUESTS[operationId];
  if (!request) throw new Error(`No operation ${operationId} in the contract`);
  const validators = compile(operationId, request);
  const params = { ...(input.params as Record<string, unknown>) };
  if (!validators.params(params))
    return { ok: false, status: 400, errors: messagesFrom(validators.params.errors) };
  const query = { ...(input.query as Record<string, unknown>) };
  if (!validators.query(query))
    return { ok: false, status: 400, errors: messagesFrom(validators.query.errors) };
  const tooMany = beyondMaxIds(request, query);
  if (tooMany) return { ok: false, status: 400, errors: [tooMany] };
  let body: unknown = input.body;
  if (request.body) {
    if (body === undefined || body === null) {
      if (request.body.required)
        return { ok: false, status: 400, errors: ["A JSON request body is required"] };
    } else {
      const mediaType = (input.contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
      const validateBody = validators.bodies.get(mediaType);
      if (!validateBody)
        return { ok: false, status: 415, errors: [`Unsupported content type: ${mediaType || "none"}`] };
      if (nestedDeeperThan(body, MAX_BODY_DEPTH)) {
        return {
          ok: false,
          status: 400,
          errors: [`The request body is nested more than ${MAX_BODY_DEPTH} levels deep`],
        };
      }
      body = structuredClone(body);
      if (!validateBody(body)) return { ok: false, status: 400, errors: messagesFrom(validateBody.errors) };
    }
  }
  return { ok: true, value: { params, query, body } };
}

/** The service's answer to a request the contract refuses, in its error payload (the sandbox and the relay send it). */
export function refusalAnswer(
  operationId: string,
  failure: { status: 400 | 415; errors: string[] },
): { status: 400 | 415; body: { error: string; message: string | undefined; errors: string[] } } {
  const [message] = failure.errors;
  const error =
    failure.status === 415
      ? "Unsupported Media Type"
      : (CONTRACT_REQUESTS[operationId]?.badRequestError ?? message ?? "Bad Request");
  return { status: failure.status, body: { error, message, errors: failure.errors } };
}
