import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";

/** Location of the project's one OpenAPI contract. */
export const OPENAPI_PATH = path.resolve(__dirname, "../../src/api/openapi.yaml");

export type JsonObject = Record<string, unknown>;

let cached: JsonObject | undefined;

/** The parsed contract, read once per process. */
export function loadOpenApiDocument(): JsonObject {
  cached ??= parse(readFileSync(OPENAPI_PATH, "utf8")) as JsonObject;
  return cached;
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
