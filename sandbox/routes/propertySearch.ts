import type { operations } from "../../src/api/schema";
import { inputOf, type OperationHandlers, type SandboxContext } from "../context";
import { geometryProblem, insideGeometry } from "../data/geometryFilter";
import { propertyEnvelope } from "../data/propertyRecord";
import { propertyPredicate } from "../data/propertyFilters";
import type { PropertyCore } from "../data/properties";
import { sendBadRequest } from "../http/errors";
import { paginate } from "../http/pagination";
import { chargeBulkExportQuota } from "../http/quotaReply";
import { currentRecordOptions } from "../http/recordOptions";

/** The body as the request validator hands it on: the contract's type, its paging defaults filled in. */
type PropertySearchBody = NonNullable<
  operations["searchProperties"]["requestBody"]
>["content"]["application/json"] & { page: number; per_page: number };

/** POST /geo_boundaries/properties: properties by boundary, custom geometry and attributes. */
export function propertySearchHandlers(context: SandboxContext): Pick<OperationHandlers, "searchProperties"> {
  return {
    searchProperties: (request, reply) => {
      const body = inputOf(request).body as PropertySearchBody;
      const dataset = context.dataset();
      let candidates: readonly PropertyCore[] = dataset.properties;
      if (body.geo_boundary_ids) {
        const unknown = body.geo_boundary_ids.filter((id) => !dataset.boundary(id));
        if (unknown.length > 0) {
          return sendBadRequest(reply, `Unknown geo boundary id(s): ${unknown.join(", ")}`);
        }
        const ids = new Set<number>();
        for (const boundaryId of body.geo_boundary_ids) {
          for (const property of dataset.propertiesByBoundary.get(boundaryId) ?? []) ids.add(property.id);
        }
        candidates = dataset.properties.filter((property) => ids.has(property.id));
      }
      if (body.geometry) {
        const problem = geometryProblem(body.geometry);
        if (problem) return sendBadRequest(reply, problem);
        candidates = candidates.filter(insideGeometry(body.geometry));
      }
      const page = paginate(candidates.filter(propertyPredicate(body)), body.page, body.per_page);
      const refused = chargeBulkExportQuota(context, request, reply, body.account_id, page.data.length);
      if (refused) return refused;
      const options = currentRecordOptions(context, request);
      return {
        data: page.data.map((property) => propertyEnvelope(dataset, property, options)),
        pagination: page.pagination,
      };
    },
  };
}
