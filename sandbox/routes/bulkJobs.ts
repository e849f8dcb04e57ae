import type { FastifyReply, FastifyRequest } from "fastify";
import { callerOf, inputOf, type OperationHandlers, type SandboxContext } from "../context";
import { MAX_JOB_RANGE_DAYS } from "../contract/limits";
import { dayNumber } from "../data/propertyRecord";
import { DOWNLOAD_URL_LIFETIME_SECONDS } from "../jobs/downloadSigner";
import { jobResource, type BulkJob, type NewJob } from "../jobs/jobStore";
import { sendError, sendNotFound } from "../http/errors";
import { paginate } from "../http/pagination";

/**
 * How far back historical exports reach, and the longest range one job may cover (both ends included, the
 * contract's `x-max-range-days`). A 13-month range (about 395 days) was accepted live; 400 days covers any 13
 * calendar months.
 */
export const HISTORY_DAYS = 730;
export const MAX_RANGE_DAYS = MAX_JOB_RANGE_DAYS;

interface CreateJobBody {
  report_type: NewJob["reportType"];
  output_format: NewJob["outputFormat"];
  start_date: string;
  end_date: string;
  property_ids: number[];
  callback_url?: string;
}

function invalid(reply: FastifyReply, message: string): FastifyReply {
  return sendError(reply, 400, "Invalid parameter", message);
}

/** The problem with a job request that the schema cannot see, or undefined. */
function dateProblem(body: CreateJobBody, today: number): string | undefined {
  const start = dayNumber(body.start_date);
  const end = dayNumber(body.end_date);
  if (start > end) return "start_date must not be after end_date";
  if (end > today) return "end_date must not be in the future";
  if (start < today - HISTORY_DAYS) return `start_date must be within the last ${HISTORY_DAYS} days`;
  if (end - start + 1 > MAX_RANGE_DAYS) return `The date range must not exceed ${MAX_RANGE_DAYS} days`;
  return undefined;
}

/** The bulk export job endpoints. Jobs belong to the API client that created them. */
export function bulkJobHandlers(
  context: SandboxContext,
): Pick<
  OperationHandlers,
  "createBulkJob" | "listBulkJobs" | "getBulkJob" | "cancelBulkJob" | "getBulkJobResults"
> {
  const ownedJob = (
    request: FastifyRequest,
    reply: FastifyReply,
  ): { job: BulkJob } | { refused: FastifyReply } => {
    const jobId = inputOf(request).params.job_id as string;
    const job = context.jobs.get(jobId);
    // The request pipeline has refused a job of another client already.
    if (!job) return { refused: sendNotFound(reply, `Job ${jobId} does not exist`) };
    return { job };
  };

  return {
    createBulkJob: (request, reply) => {
      const body = inputOf(request).body as CreateJobBody;
      const problem = dateProblem(body, dayNumber(context.clock.today()));
      if (problem) return invalid(reply, problem);
      const propertyIds = [...new Set(body.property_ids)];
      const dataset = context.dataset();
      const unknown = propertyIds.filter((id) => !dataset.propertyById.has(id));
      if (unknown.length > 0)
        return invalid(reply, `Unknown property ids: ${unknown.slice(0, 20).join(", ")}`);
      const job = context.jobs.create({
        clientId: callerOf(request).client.clientId,
        reportType: body.report_type,
        outputFormat: body.output_format,
        propertyIds,
        startDate: body.start_date,
        endDate: body.end_date,
        callbackUrl: body.callback_url ?? null,
      });
      context.worker.schedule(job);
      return reply.code(201).send(jobResource(job));
    },

    listBulkJobs: (request) => {
      const { query } = inputOf(request);
      const page = paginate(
        context.jobs.listFor(callerOf(request).client.clientId),
        query.page as number,
        query.per_page as number,
      );
      return { jobs: page.data.map(jobResource), pagination: page.pagination };
    },

    getBulkJob: (request, reply) => {
      const found = ownedJob(request, reply);
      return "refused" in found ? found.refused : jobResource(found.job);
    },

    cancelBulkJob: (request, reply) => {
      const found = ownedJob(request, reply);
      if ("refused" in found) return found.refused;
      const { job } = found;
      if (job.status !== "submitted") {
        return sendError(
          reply,
          409,
          "Conflict",
          `Job ${job.jobId} is ${job.status} and can no longer be cancelled`,
        );
      }
      context.jobs.update(job, { status: "cancelled" });
      return jobResource(job);
    },

    getBulkJobResults: (request, reply) => {
      const found = ownedJob(request, reply);
      if ("refused" in found) return found.refused;
      const { job } = found;
      if (job.status !== "succeeded" || !job.file) {
        const reason = job.status === "failed" && job.errorMessage ? `: ${job.errorMessage}` : "";
        return sendError(
          reply,
          409,
          "Conflict",
          `Job ${job.jobId} is ${job.status}${reason}; results exist only for succeeded jobs`,
        );
      }
      if (!context.downloadOrigin) throw new Error("The download origin is not running (use startSandbox)");
      const expires = context.clock.nowSeconds() + DOWNLOAD_URL_LIFETIME_SECONDS;
      return reply.redirect(
        context.downloadOrigin + context.signer.signedPath(job.jobId, job.file.name, expires),
        302,
      );
    },
  };
}
