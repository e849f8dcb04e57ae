import type { FastifyReply, FastifyRequest } from "fastify";
import { operationById, type OperationId } from "../../src/api/operations";
import type { SandboxContext } from "../context";
import { clientMayActFor } from "../data/clients";
import { compSetsOf } from "../data/compSets";
import { sendForbidden } from "./errors";

/** Path, query and body values of a request, as they arrived or as validated. */
export interface RequestValues {
  params: unknown;
  query: unknown;
  body: unknown;
}

function member(values: unknown, name: string): unknown {
  return values !== null && typeof values === "object"
    ? (values as Record<string, unknown>)[name]
    : undefined;
}

/** An id written as digits (a path or query value) or a whole number (JSON); anything else is no id. */
function idOf(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : undefined;
  return typeof value === "string" && /^[0-9]{1,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * Access before parameters (api-notes, "Observed on the live service", second pass): a request that names an
 * account, a comp set or a job the caller may not see answers 403, whatever else is wrong with it. Where the
 * operation names them is the operations table's `reach`, read from the contract. Run on the values as they
 * arrived (so a bad parameter does not hide the refusal) and again on the validated values.
 */
export function refuseForeignAccess(
  context: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
  values: RequestValues,
): FastifyReply | undefined {
  const operationId = request.routeOptions.config.operation?.operationId;
  const clientId = request.caller?.client.clientId;
  if (operationId === undefined || clientId === undefined) return undefined;
  const reach = operationById(operationId as OperationId).reach;
  switch (reach.kind) {
    case "account": {
      const source = reach.in === "path" ? values.params : reach.in === "query" ? values.query : values.body;
      const accountId = idOf(member(source, "account_id"));
      if (accountId !== undefined && !clientMayActFor(clientId, accountId))
        return sendForbidden(reply, `You do not have access to account ${accountId}`);
      return undefined;
    }
    case "comp_set": {
      const id = idOf(member(values.params, "comp_set_id"));
      const compSet = compSetsOf(context.dataset()).find((candidate) => candidate.id === id);
      if (compSet && !clientMayActFor(clientId, compSet.accountId))
        return sendForbidden(reply, `You do not have access to comp set ${compSet.id}`);
      return undefined;
    }
    case "job": {
      const jobId = member(values.params, "job_id");
      const job = typeof jobId === "string" ? context.jobs.get(jobId) : undefined;
      if (job && job.clientId !== clientId)
        return sendForbidden(reply, `You do not have permission to access job ${job.jobId}`);
      return undefined;
    }
    default:
      return undefined;
  }
}
