/**
 * Writes src/api/contractOperations.ts: every operation of the contract under its API base (method, path
 * template, typed path and query parameters, what its JSON body requires, tier and id limit), so the relay's
 * routes and access rules, and the add-in's data layer, read the contract's data instead of restating it.
 * Part of `npm run generate:api`; a test fails when the file is stale.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  dereference,
  loadOpenApiDocument,
  resolvePointer,
  type JsonObject,
} from "../sandbox/contract/openapiDocument";

export const CONTRACT_OPERATIONS_PATH = join(__dirname, "..", "src", "api", "contractOperations.ts");

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** A schema with its `$ref` followed and a nullable type reduced to the type. */
function plainSchema(document: JsonObject, schema: unknown): JsonObject {
  const resolved = dereference<JsonObject>(document, schema as JsonObject) ?? {};
  const types = (Array.isArray(resolved.type) ? resolved.type : [resolved.type]).filter(
    (type) => type !== "null",
  );
  return { ...resolved, type: types[0] };
}

function parameterOf(document: JsonObject, node: unknown): JsonObject {
  const parameter = dereference<JsonObject>(document, node as JsonObject);
  const schema = plainSchema(document, parameter.schema);
  const described: JsonObject = {
    name: parameter.name,
    in: parameter.in,
    type: schema.type,
    required: parameter.required === true,
  };
  for (const key of ["minimum", "maximum", "pattern", "format", "maxItems", "enum", "default"] as const)
    if (schema[key] !== undefined) described[key] = schema[key];
  if (schema["x-unit"] !== undefined) described.unit = schema["x-unit"];
  if (schema.type === "array") described.items = plainSchema(document, schema.items).type;
  return described;
}

/** A body member's JSON type, as a query parameter's is described: type, format, pattern, enum, item type. */
function memberTypeOf(document: JsonObject, member: JsonObject): JsonObject {
  const described: JsonObject = { type: member.type };
  for (const key of ["format", "pattern", "enum"] as const)
    if (member[key] !== undefined) described[key] = member[key];
  if (member.type === "array") described.items = plainSchema(document, member.items).type;
  return described;
}

function bodyOf(document: JsonObject, operation: JsonObject): JsonObject | undefined {
  if (!operation.requestBody) return undefined;
  const requestBody = dereference<JsonObject>(document, operation.requestBody as JsonObject);
  const content = requestBody.content as Record<string, { schema: unknown }>;
  const json = content["application/json"];
  if (!json) throw new Error("Only JSON request bodies are described for operations under the API base");
  const schema = plainSchema(document, json.schema);
  // Members a body takes from shared schemas (`allOf`, such as PropertyFilters) come first, as the contract lists them.
  const shared = ((schema.allOf as unknown[] | undefined) ?? []).map((part) => plainSchema(document, part));
  const properties: JsonObject = Object.assign(
    {},
    ...shared.map((part) => part.properties ?? {}),
    schema.properties ?? {},
  );
  // The bounds of top-level members (a count's range, a list's maxItems), for the add-in to batch and check by.
  const limits: JsonObject = {};
  // What the service takes for a member left out (a `default` beside a `$ref` counts, as OpenAPI 3.1 allows).
  const defaults: JsonObject = {};
  // Each member's type, so the add-in reads an option by what the contract says it is.
  const types: JsonObject = {};
  for (const [name, node] of Object.entries(properties)) {
    const member = plainSchema(document, node);
    types[name] = memberTypeOf(document, member);
    const bound: JsonObject = {};
    for (const key of ["minimum", "maximum", "maxItems"] as const)
      if (member[key] !== undefined) bound[key] = member[key];
    if (Object.keys(bound).length > 0) limits[name] = bound;
    const fallback = (node as JsonObject).default ?? member.default;
    if (fallback !== undefined) defaults[name] = fallback;
  }
  return {
    required: requestBody.required === true,
    properties: Object.keys(properties),
    requiredProperties: (schema.required as string[] | undefined) ?? [],
    types,
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
    ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
  };
}

/** The top-level properties a 200 JSON answer must have (what the relay checks before it caches one). */
function answerOf(document: JsonObject, operation: JsonObject): JsonObject | undefined {
  const responses = operation.responses as Record<string, unknown>;
  if (!responses["200"]) return undefined;
  const ok = dereference<JsonObject>(document, responses["200"] as JsonObject);
  const json = (ok.content as Record<string, { schema: unknown }> | undefined)?.["application/json"];
  if (!json) return undefined;
  const schema = plainSchema(document, json.schema);
  return { required: (schema.required as string[] | undefined) ?? [] };
}

const FRESHNESS_EVENTS = ["daily_posting", "month_start", "any_time", "never"];

/**
 * When an operation's answer can change (`x-freshness`): its events, how long an `any_time` answer is served, and
 * whether the contract assumes it (no source says). The texts stay in the contract, where they are read.
 */
function freshnessOf(operation: JsonObject): JsonObject | undefined {
  const freshness = operation["x-freshness"] as JsonObject | undefined;
  if (!freshness) return undefined;
  const changes = freshness.changes as string[];
  const unknown = changes.filter((event) => !FRESHNESS_EVENTS.includes(event));
  if (unknown.length > 0)
    throw new Error(`${String(operation.operationId)}: x-freshness names ${unknown.join(", ")}`);
  if (changes.includes("any_time") !== (freshness.max_age_minutes !== undefined))
    throw new Error(
      `${String(operation.operationId)}: x-freshness any_time needs max_age_minutes, and only it`,
    );
  if (freshness.source === undefined && freshness.assumption === undefined)
    throw new Error(`${String(operation.operationId)}: x-freshness needs a source or an assumption`);
  const described: JsonObject = { changes };
  if (freshness.max_age_minutes !== undefined) described.maxAgeMinutes = freshness.max_age_minutes;
  if (freshness.assumption !== undefined) described.assumed = true;
  return described;
}

/** Every operation served under the API base, in contract order. */
export function contractOperations(): JsonObject[] {
  const document = loadOpenApiDocument();
  const operations: JsonObject[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, JsonObject>)) {
    // An operation with servers of its own (the token endpoint) lives outside the API base.
    if (item.servers) continue;
    for (const method of METHODS) {
      const operation = item[method] as JsonObject | undefined;
      if (!operation) continue;
      if (typeof operation.summary !== "string")
        throw new Error(`${String(operation.operationId)} has no summary: messages name it by its summary`);
      const row: JsonObject = {
        operationId: operation.operationId,
        summary: operation.summary,
        method: method.toUpperCase(),
        path,
        parameters: ((operation.parameters as unknown[] | undefined) ?? []).map((node) =>
          parameterOf(document, node),
        ),
      };
      const body = bodyOf(document, operation);
      if (body) row.body = body;
      const answer = answerOf(document, operation);
      if (answer) row.answer = answer;
      for (const [extension, key] of [
        ["x-required-tier", "tier"],
        ["x-max-ids", "maxIds"],
        ["x-max-range-days", "maxRangeDays"],
      ] as const)
        if (operation[extension] !== undefined) row[key] = operation[extension];
      const duration = operation["x-expected-duration"] as JsonObject | undefined;
      if (duration?.observed !== undefined) row.observedDurations = duration.observed;
      const freshness = freshnessOf(operation);
      if (freshness) row.freshness = freshness;
      operations.push(row);
    }
  }
  if (!resolvePointer(document, "#/paths")) throw new Error("The contract has no paths");
  return operations;
}

export function contractOperationsSource(): string {
  const rows = contractOperations()
    .map((row) => `  ${JSON.stringify(row)},`)
    .join("\n");
  return `// Generated by scripts/generateOperations.ts from src/api/openapi.yaml (npm run generate:api). Do not edit.

import type { Tier } from "./tiers";

/** A path or query parameter as the contract types it. */
export interface ContractParameter {
  readonly name: string;
  readonly in: "path" | "query";
  readonly type: "integer" | "number" | "string" | "boolean" | "array";
  readonly required: boolean;
  readonly items?: "integer" | "number" | "string";
  readonly minimum?: number;
  readonly maximum?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly maxItems?: number;
  readonly enum?: readonly unknown[];
  /** What the service takes when the parameter is left out. */
  readonly default?: unknown;
  /** What a number means (\`x-unit\`), e.g. miles. */
  readonly unit?: string;
}

/** A body member's JSON type as the contract gives it (no type: a member of several shapes, \`oneOf\`). */
export interface ContractMemberType {
  readonly type?: "integer" | "number" | "string" | "boolean" | "array" | "object";
  readonly format?: string;
  readonly pattern?: string;
  readonly enum?: readonly unknown[];
  readonly items?: "integer" | "number" | "string" | "object";
}

/** What an operation's JSON body holds: its top-level properties and which of them are required. */
export interface ContractBody {
  readonly required: boolean;
  readonly properties: readonly string[];
  readonly requiredProperties: readonly string[];
  /** Each top-level member's type, by name. */
  readonly types: Readonly<Record<string, ContractMemberType>>;
  /** Bounds of top-level members: a number's range, a list's maxItems. */
  readonly limits?: Readonly<
    Record<string, { readonly minimum?: number; readonly maximum?: number; readonly maxItems?: number }>
  >;
  /** What the service takes for a top-level member the body leaves out (its \`default\`). */
  readonly defaults?: Readonly<Record<string, unknown>>;
}

/** What a 200 JSON answer holds at its top level. */
export interface ContractAnswer {
  readonly required: readonly string[];
}

/** An event after which an answer may differ (x-freshness). */
export type FreshnessEvent = "daily_posting" | "month_start" | "any_time" | "never";

/** When an operation's answer can change: its events, and how long an \`any_time\` answer is served. */
export interface ContractFreshness {
  readonly changes: readonly FreshnessEvent[];
  readonly maxAgeMinutes?: number;
  /** No source says so: the contract's assumption. */
  readonly assumed?: boolean;
}

/** One operation of the contract under the API base (paths relative to it, as the contract writes them). */
export interface ContractOperation {
  readonly operationId: string;
  /** What it does in words (the contract's \`summary\`), for a message a person reads instead of its path. */
  readonly summary: string;
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  readonly path: string;
  readonly parameters: readonly ContractParameter[];
  readonly body?: ContractBody;
  readonly answer?: ContractAnswer;
  readonly tier?: Tier;
  readonly maxIds?: number;
  /** Days one request's range covers at most, both ends included (x-max-range-days). */
  readonly maxRangeDays?: number;
  /** Recorded sizes and end-to-end times (x-expected-duration.observed). */
  readonly observedDurations?: readonly { readonly property_days: number; readonly seconds: number }[];
  /** When its answer can change (x-freshness). */
  readonly freshness?: ContractFreshness;
}

export const CONTRACT_OPERATIONS = [
${rows}
] as const satisfies readonly ContractOperation[];

export type OperationId = (typeof CONTRACT_OPERATIONS)[number]["operationId"];
`;
}

if (require.main === module) writeFileSync(CONTRACT_OPERATIONS_PATH, contractOperationsSource());
