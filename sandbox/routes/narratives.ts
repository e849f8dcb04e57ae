import { callerOf, inputOf, type OperationHandlers, type SandboxContext } from "../context";
import { tierAtLeast } from "../../src/api/tiers";
import { hasNarrative, narrativeFor, SALES_TIER, truncateSales } from "../data/narratives";
import { sendNotFound } from "../http/errors";

/** GET /markets/narratives. */
export function narrativeHandlers(context: SandboxContext): Pick<OperationHandlers, "getMarketNarratives"> {
  return {
    getMarketNarratives: (request, reply) => {
      const { query } = inputOf(request);
      const dataset = context.dataset();
      const boundaryId = query.geo_boundary_id as number;
      const boundary = dataset.boundary(boundaryId);
      if (!boundary) return sendNotFound(reply, `Geo boundary ${boundaryId} does not exist`);
      if (!hasNarrative(boundary)) return { data: [] };
      const narrative = narrativeFor(dataset, boundary, context.clock.today());
      const attributes = tierAtLeast(callerOf(request).client.tier, SALES_TIER)
        ? narrative
        : { ...narrative, sales: truncateSales(narrative.sales) };
      return { data: [{ id: String(narrative.id), type: "narrative", attributes }] };
    },
  };
}
