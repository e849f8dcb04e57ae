import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { parse } from "yaml";
import { madeFromContract } from "../../../sandbox/contract/openapiDocument";

/**
 * Validates responses against src/api/openapi.yaml, read independently of the sandbox's own
 * contract loader so a bug there cannot hide a bug in the sandbox.
 */
type Json = Record<string, unknown>;

const DOCUMENT_ID = "contract";
const CONTRACT_PATH = path.resolve(__dirname, "../../../src/api/openapi.yaml");

interface ParsedContract {
  contract: Json;
  ajv: Ajv2020;
  /** Compiled validators by operation, status and media type (or schema name). */
  validators: Map<string, ValidateFunction>;
}

/**
 * This module's own parse of the contract and what ajv compiled from it. The sandbox keeps it beside its parse
 * for as long as the file is unchanged (for the jest worker, whose files then parse and compile it once
 * instead of once each); the content never comes from the sandbox's loader.
 */
function parsedContract(): ParsedContract {
  const document = parse(readFileSync(CONTRACT_PATH, "utf8")) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, DOCUMENT_ID, undefined, false);
  return { contract: document, ajv, validators: new Map() };
}

const { contract: parsedDocument, ajv, validators } = madeFromContract("response validator", parsedContract);
export const contract = parsedDocument;

function resolve(node: unknown): Json {
  let current = node as Json;
  while (typeof current?.$ref === "string") {
    current = (current.$ref as string)
      .slice(2)
      .split("/")
      .reduce<unknown>((value, key) => (value as Json)[key], contract) as Json;
  }
  return current;
}

function qualify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(qualify);
  if (node && typeof node === "object") {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === "$ref" && typeof value === "string" ? DOCUMENT_ID + value : qualify(value),
      ]),
    );
  }
  return node;
}

export interface ContractOperationInfo {
  operationId: string;
  method: string;
  path: string;
  statuses: string[];
}

/** Every operation of the contract with the statuses it names. */
export function contractOperationList(): ContractOperationInfo[] {
  const list: ContractOperationInfo[] = [];
  for (const [pathName, item] of Object.entries(contract.paths as Json)) {
    for (const method of ["get", "post", "put", "delete"]) {
      const operation = (item as Json)[method] as Json | undefined;
      if (!operation) continue;
      list.push({
        operationId: operation.operationId as string,
        method: method.toUpperCase(),
        path: pathName,
        statuses: Object.keys(operation.responses as Json),
      });
    }
  }
  return list;
}

function responseDefinition(operationId: string, status: number): Json {
  for (const item of Object.values(contract.paths as Json)) {
    for (const method of ["get", "post", "put", "delete"]) {
      const operation = (item as Json)[method] as Json | undefined;
      if (operation?.operationId !== operationId) continue;
      const response = (operation.responses as Json)[String(status)];
      if (!response) throw new Error(`${operationId} names no ${status} response in the contract`);
      return resolve(response);
    }
  }
  throw new Error(`No operation ${operationId} in the contract`);
}

function validatorFor(key: string, schema: unknown): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(qualify(schema) as Json);
    validators.set(key, validate);
  }
  return validate;
}

/** A list of problems with a response (empty when it conforms to the contract). */
export function contractProblems(
  operationId: string,
  response: { status: number; headers: Headers; body: unknown; text: string },
): string[] {
  const definition = responseDefinition(operationId, response.status);
  const problems: string[] = [];
  for (const [name, header] of Object.entries((definition.headers as Json | undefined) ?? {})) {
    const required = (header as Json).required === true || response.status === 429;
    if (required && response.headers.get(name) === null) problems.push(`missing header ${name}`);
  }
  const content = definition.content as Json | undefined;
  if (!content) return problems;
  const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
  const media = content[mediaType] as Json | undefined;
  if (!media) return [...problems, `content type ${mediaType} is not declared for ${response.status}`];
  const validate = validatorFor(`${operationId}:${response.status}:${mediaType}`, media.schema);
  const data = mediaType === "application/json" ? response.body : response.text;
  if (!validate(data))
    problems.push(
      ...(validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath} ${error.message}`),
    );
  return problems;
}

/** Validates a component schema (e.g. an export row) against data. */
export function schemaProblems(schemaName: string, data: unknown): string[] {
  const validate = validatorFor(`schema:${schemaName}`, { $ref: `#/components/schemas/${schemaName}` });
  return validate(data)
    ? []
    : (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath} ${error.message}`);
}

interface RouteMatcher {
  operationId: string;
  method: string;
  pattern: RegExp;
  statuses: string[];
}

function serverPrefix(servers: unknown): string {
  const first = Array.isArray(servers) ? (servers[0] as { url?: string } | undefined) : undefined;
  return first?.url ? new URL(first.url).pathname.replace(/\/$/, "") : "";
}

const matchers: RouteMatcher[] = contractOperationList().map((operation) => {
  const item = (contract.paths as Json)[operation.path] as Json;
  const prefix = item.servers ? serverPrefix(item.servers) : serverPrefix(contract.servers);
  const pattern = new RegExp(`^${prefix}${operation.path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
  return {
    operationId: operation.operationId,
    method: operation.method,
    pattern,
    statuses: operation.statuses,
  };
});

/**
 * Problems with any sandbox response, found by its method and path: an undeclared status, or a
 * body or header that does not match the contract. Paths outside the contract (admin routes,
 * downloads) give no problems.
 */
export function responseProblems(
  method: string,
  url: string,
  response: { status: number; headers: Headers; body: unknown; text: string },
): string[] {
  const pathname = new URL(url, "http://sandbox").pathname;
  const matcher = matchers.find(
    (candidate) => candidate.method === method && candidate.pattern.test(pathname),
  );
  if (!matcher) return [];
  if (!matcher.statuses.includes(String(response.status))) {
    return [`${matcher.operationId} answered ${response.status}, which the contract does not name`];
  }
  return contractProblems(matcher.operationId, response);
}
