import type { Tier } from "../../src/api/tiers";
import { dereference, loadOpenApiDocument, type JsonObject } from "./openapiDocument";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface ContractParameter {
  name: string;
  in: "query" | "path";
  required: boolean;
  schema: JsonObject;
}

/** One operation of the contract, in the shape the sandbox needs to route and validate it. */
export interface ContractOperation {
  operationId: string;
  method: HttpMethod;
  /** Path as written in the contract, e.g. `/properties/{property_id}/forecasts`. */
  contractPath: string;
  /** Fastify route including the server prefix, e.g. `/v1/properties/:property_id/forecasts`. */
  routePath: string;
  requiresAuth: boolean;
  requiredTier: Tier | undefined;
  /** `error` text of a 400 answer when the contract fixes one (`x-bad-request-error`). */
  badRequestError: string | undefined;
  parameters: ContractParameter[];
  /** Request body schema per content type; undefined when the operation takes no body. */
  requestBody: { required: boolean; schemas: Record<string, JsonObject> } | undefined;
  /** The operation's `x-*` vendor extensions. */
  extensions: Record<string, unknown>;
  /** Response definitions keyed by status code (refs resolved one level). */
  responses: Record<string, JsonObject>;
}

const METHODS: HttpMethod[] = ["GET", "POST", "PUT", "DELETE"];

function serverPathPrefix(servers: unknown): string {
  const first = Array.isArray(servers) ? (servers[0] as { url?: string } | undefined) : undefined;
  if (!first?.url) return "";
  return new URL(first.url).pathname.replace(/\/$/, "");
}

let cached: ContractOperation[] | undefined;

/** Every operation of the OpenAPI contract, read once per process. */
export function contractOperations(): ContractOperation[] {
  if (cached) return cached;
  const document = loadOpenApiDocument();
  const documentPrefix = serverPathPrefix(document.servers);
  const operations: ContractOperation[] = [];
  for (const [contractPath, pathItemValue] of Object.entries(document.paths as JsonObject)) {
    const pathItem = pathItemValue as JsonObject;
    const prefix = pathItem.servers ? serverPathPrefix(pathItem.servers) : documentPrefix;
    for (const method of METHODS) {
      const operation = pathItem[method.toLowerCase()] as JsonObject | undefined;
      if (!operation) continue;
      const parameters = [
        ...((pathItem.parameters as unknown[]) ?? []),
        ...((operation.parameters as unknown[]) ?? []),
      ]
        .map((parameter) => dereference<JsonObject>(document, parameter as JsonObject))
        .map((parameter): ContractParameter => ({
          name: parameter.name as string,
          in: parameter.in as "query" | "path",
          required: parameter.required === true,
          schema: (parameter.schema as JsonObject | undefined) ?? {},
        }));
      const body = operation.requestBody
        ? dereference<JsonObject>(document, operation.requestBody as JsonObject)
        : undefined;
      const responses = Object.fromEntries(
        Object.entries((operation.responses as JsonObject) ?? {}).map(([status, response]) => [
          status,
          dereference<JsonObject>(document, response as JsonObject),
        ]),
      );
      operations.push({
        operationId: operation.operationId as string,
        method,
        contractPath,
        routePath: prefix + contractPath.replace(/\{([^}]+)\}/g, ":$1"),
        requiresAuth: !(Array.isArray(operation.security) && operation.security.length === 0),
        requiredTier: operation["x-required-tier"] as Tier | undefined,
        badRequestError: operation["x-bad-request-error"] as string | undefined,
        extensions: Object.fromEntries(Object.entries(operation).filter(([key]) => key.startsWith("x-"))),
        parameters,
        requestBody: body
          ? {
              required: body.required === true,
              schemas: Object.fromEntries(
                Object.entries(body.content as JsonObject).map(([type, media]) => [
                  type,
                  (media as JsonObject).schema as JsonObject,
                ]),
              ),
            }
          : undefined,
        responses,
      });
    }
  }
  cached = operations;
  return operations;
}

export function findOperation(operationId: string): ContractOperation {
  const operation = contractOperations().find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`No operation ${operationId} in the OpenAPI contract`);
  return operation;
}
