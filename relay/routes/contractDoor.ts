import type { FastifyReply, FastifyRequest } from "fastify";
import { operationById, operationIdOf, type Operation } from "../../src/api/operations";
import { refusalAnswer, validateRequest } from "../../src/api/requestValidator";
import type { UserRecord } from "../store/relayStore";
import { isObject, mayUse } from "./accountAccess";
import { belowApiBase } from "./apiTarget";

/** The path parameters of an operation's template in a decoded path, as strings (as a server's router gives them). */
function pathValues(template: string, path: string): Record<string, string> | undefined {
  let segments: string[];
  try {
    segments = path.split("/").map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  const values: Record<string, string> = {};
  for (const [index, part] of template.split("/").entries()) {
    const name = /^\{(.+)\}$/.exec(part)?.[1];
    if (name) values[name] = segments[index] as string;
  }
  return values;
}

/**
 * Whether the request names an account that is not the person's. The service checks access before parameters
 * (api-notes, second pass: a 403, not a 400), so such a request is left to the routes, which refuse it with 403.
 */
function namesAnotherAccount(
  operation: Operation,
  user: UserRecord | undefined,
  named: { params: Record<string, string>; query: unknown; body: unknown },
): boolean {
  const { reach } = operation;
  if (reach.kind !== "account" || !user) return false;
  const from = reach.in === "path" ? named.params : reach.in === "query" ? named.query : named.body;
  const value = isObject(from) ? from.account_id : undefined;
  const accountId = typeof value === "string" && /^[0-9]{1,15}$/.test(value) ? Number(value) : value;
  return typeof accountId === "number" && Number.isSafeInteger(accountId) && !mayUse(user, accountId);
}

/**
 * The relay's door to the service: a request of an operation of the contract that the contract refuses (a value
 * out of range, more ids than one call takes, a body member it does not define) is answered here with the 400
 * the service gives it (src/api/requestValidator.ts, the sandbox's own check), before it spends anything of the
 * team's budget or an account's quota. What names no operation goes on to the routes, which say so.
 */
export async function refuseOutsideContract(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const target = belowApiBase(request.raw.url ?? request.url);
  const operationId = target && operationIdOf(request.method, target.path);
  if (!target || !operationId) return;
  const params = pathValues(operationById(operationId).path, target.path);
  if (!params) return;
  const result = validateRequest(operationId, {
    params,
    query: request.query,
    body: request.body,
    contentType: request.headers["content-type"],
  });
  if (result.ok) return;
  const named = { params, query: request.query, body: request.body };
  if (namesAnotherAccount(operationById(operationId), request.relayUser, named)) return;
  const { status, body } = refusalAnswer(operationId, result);
  await reply.code(status).type("application/json").send(body);
}
