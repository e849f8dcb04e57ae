import type { FastifyRequest } from "fastify";
import { callerOf, type SandboxContext } from "../context";
import type { RecordOptions } from "../data/propertyRecord";
import { shapeOf } from "../variant";

/** Today's property records, with ownership and sale fields only for pro-plus callers. */
export function currentRecordOptions(context: SandboxContext, request: FastifyRequest): RecordOptions {
  const today = context.clock.today();
  return {
    collectedAt: today,
    today,
    includeOwnership: callerOf(request).client.tier === "pro-plus",
    percentScale: shapeOf(context.options.variant).percentScale,
  };
}
