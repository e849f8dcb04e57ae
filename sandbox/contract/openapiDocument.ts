import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";

/** Location of the project's one OpenAPI contract. */
export const OPENAPI_PATH = path.resolve(__dirname, "../../src/api/openapi.yaml");

export type JsonObject = Record<string, unknown>;

/**
 * Parsed contracts by file version, and what is made from them (`madeFromContract`). Jest loads this module
 * afresh for every test file; its test environment lends a map that lasts as long as the worker
 * (test/support/workerScope.ts), so the worker's files share one parse (most of a second of CPU each) instead
 * of each parsing the YAML again. Never mutated.
 */
const parsed: Map<string, unknown> =
  (globalThis as { sandboxContracts?: Map<string, unknown> }).sandboxContracts ?? new Map();

const currentVersion = () => `${OPENAPI_PATH} ${statSync(OPENAPI_PATH).mtimeMs}`;

/** The parsed contract, read once per process (once per jest worker) and again only if the file changes. */
export function loadOpenApiDocument(): JsonObject {
  const version = currentVersion();
  let document = parsed.get(version) as JsonObject | undefined;
  if (!document) {
    document = parse(readFileSync(OPENAPI_PATH, "utf8")) as JsonObject;
    parsed.clear();
    parsed.set(version, document);
  }
  return document;
}

/**
 * What `make` builds from the contract (the request validators), built once per version of the file and
 * process (once per jest worker, like the parse) and dropped with the parse when the file changes.
 */
export function madeFromContract<T>(name: string, make: () => T): T {
  loadOpenApiDocument();
  const key = `${currentVersion()} ${name}`;
  if (!parsed.has(key)) parsed.set(key, make());
  return parsed.get(key) as T;
}

/** Follows a local JSON pointer such as `#/components/parameters/Page`. */
export function resolvePointer(document: JsonObject, pointer: string): unknown {
  if (!pointer.startsWith("#/")) throw new Error(`Only local references are supported: ${pointer}`);
  return pointer
    .slice(2)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, segment) => (node as JsonObject | undefined)?.[segment], document);
}

/** Replaces a `{$ref}` object by its target (one level; schemas keep their refs for ajv). */
export function dereference<T>(document: JsonObject, node: T | { $ref: string }): T {
  if (node && typeof node === "object" && "$ref" in node && typeof node.$ref === "string") {
    return resolvePointer(document, node.$ref) as T;
  }
  return node as T;
}
