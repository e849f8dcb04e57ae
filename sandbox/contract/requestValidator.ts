import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { loadOpenApiDocument, madeFromContract, resolvePointer, type JsonObject } from "./openapiDocument";
import type { ContractOperation } from "./operations";

/** Schema id under which the whole contract is registered with ajv, so `#/components/...` refs resolve. */
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
  ajv.addSchema(loadOpenApiDocument(), CONTRACT_ID, undefined, false);
  return ajv;
}

/**
 * The two ajv instances and the operations' validators compiled so far. Compiling is most of a second of CPU
 * for the operations a test file uses, and validators are pure functions of the contract: they are kept with
 * the parsed contract, so a jest worker's files share them as they share the parse (sandbox/contract/
 * openapiDocument.ts), and a sandbox process compiles each once.
 */
interface Validators {
  coercing: Ajv2020;
  strict: Ajv2020;
  /** By operation id; an operation's are compiled on its first request. */
  compiled: Map<string, CompiledOperation>;
}

function validators(): Validators {
  return madeFromContract("request validators", () => ({
    coercing: createAjv(true),
    strict: createAjv(false),
    compiled: new Map<string, CompiledOperation>(),
  }));
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
    return schemaOf(resolvePointer(loadOpenApiDocument(), local));
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

function objectSchemaFor(operation: ContractOperation, location: "query" | "path"): JsonObject {
  const parameters = operation.parameters.filter((parameter) => parameter.in === location);
  return qualifyRefs({
    type: "object",
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    additionalProperties: false,
    "x-error-messages": { additionalProperties: "Unknown query parameter: {property}" },
  }) as JsonObject;
}

/** Validators are compiled on an operation's first request, so a sandbox starts without compiling all of them. */
function compile(operation: ContractOperation): CompiledOperation {
  const { coercing, strict, compiled } = validators();
  const existing = compiled.get(operation.operationId);
  if (existing) return existing;
  const result: CompiledOperation = {
    params: coercing.compile(objectSchemaFor(operation, "path")),
    query: coercing.compile(objectSchemaFor(operation, "query")),
    bodies: new Map(
      Object.entries(operation.requestBody?.schemas ?? {}).map(([type, schema]) => [
        type,
        strict.compile(qualifyRefs(schema) as JsonObject),
      ]),
    ),
  };
  compiled.set(operation.operationId, result);
  return result;
}

/**
 * Validates a request's path, query and body against the contract. Returns copies with types
 * coerced and defaults applied; the original request objects are left as they came.
 */
export function validateRequest(
  operation: ContractOperation,
  input: { params: unknown; query: unknown; body: unknown; contentType: string | undefined },
): ValidationResult {
  const validators = compile(operation);
  const params = { ...(input.params as Record<string, unknown>) };
  if (!validators.params(params))
    return { ok: false, status: 400, errors: messagesFrom(validators.params.errors) };
  const query = { ...(input.query as Record<string, unknown>) };
  if (!validators.query(query))
    return { ok: false, status: 400, errors: messagesFrom(validators.query.errors) };
  let body: unknown = input.body;
  if (operation.requestBody) {
    if (body === undefined || body === null) {
      if (operation.requestBody.required)
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
