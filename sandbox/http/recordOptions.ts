import type { FastifyRequest } from "fastify";
import { tierAtLeast } from "../../src/api/tiers";
import { callerOf, type SandboxContext } from "../context";
import { tieredFields } from "../contract/sentScale";
import type { RecordOptions } from "../data/propertyRecord";
import { shapeOf } from "../variant";

/**
 * Today's property records, with the ownership and sale fields (the property fields with an `x-tier`) only for
 * callers whose tier reaches theirs.
 */
export function currentRecordOptions(context: SandboxContext, request: FastifyRequest): RecordOptions {
  const today = context.clock.today();
  const tier = callerOf(request).client.tier;
  return {
    collectedAt: today,
    today,
    includeOwnership: [...tieredFields("PropertyAttributes").values()].every((needed) =>
      tierAtLeast(tier, needed),
    ),
    percentScale: shapeOf(context.options.variant).percentScale,
  };
}
