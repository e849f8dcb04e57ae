import type { operations } from "../../src/api/schema";
import { inputOf, type OperationHandlers, type SandboxContext } from "../context";
import { parameterErrorMessage } from "../contract/limits";
import { propertyEnvelope } from "../data/propertyRecord";
import { distanceMiles, propertyPredicate } from "../data/propertyFilters";
import type { PropertyCore } from "../data/properties";
import { sendBadRequest } from "../http/errors";
import { paginate } from "../http/pagination";
import { chargeBulkExportQuota } from "../http/quotaReply";
import { currentRecordOptions } from "../http/recordOptions";

/** A bulk details call without ids: the same sentence as an empty `property_ids` (the contract's words). */
const PROPERTY_IDS_REQUIRED = parameterErrorMessage("getBulkPropertyDetails", "property_ids", "minLength");

/** The query as the request validator hands it on: the contract's type, its defaults filled in. */
type LookupQuery = NonNullable<operations["lookupProperties"]["parameters"]["query"]> & {
  radius: number;
  page: number;
  per_page: number;
};

/** Ids from `property_ids=1,2` or `property_ids[]=1&property_ids[]=2`, deduplicated in request order. */
function requestedIds(query: Record<string, unknown>): number[] | undefined {
  const listed = query["property_ids[]"] as number[] | undefined;
  const commaSeparated = query.property_ids as string | undefined;
  const ids = [...(listed ?? []), ...(commaSeparated ? commaSeparated.split(",").map(Number) : [])];
  return ids.length === 0 ? undefined : [...new Set(ids)];
}

/** GET /properties/lookup and GET /properties/bulk_details. */
export function propertyHandlers(
  context: SandboxContext,
): Pick<OperationHandlers, "lookupProperties" | "getBulkPropertyDetails"> {
  return {
    lookupProperties: (request, reply) => {
      const query = inputOf(request).query as unknown as LookupQuery;
      const latitude = query.latitude ?? query.lat;
      const longitude = query.longitude ?? query.lng;
      if ((latitude === undefined) !== (longitude === undefined)) {
        return sendBadRequest(reply, "latitude and longitude must be given together");
      }
      if (latitude === undefined && (request.query as Record<string, unknown>).radius !== undefined) {
        return sendBadRequest(reply, "radius requires latitude and longitude");
      }
      const matches = propertyPredicate(query);
      const near =
        latitude !== undefined && longitude !== undefined
          ? (property: PropertyCore) =>
              distanceMiles(latitude, longitude, property.latitude, property.longitude) <= query.radius
          : () => true;
      const ids = context
        .dataset()
        .properties.filter((property) => near(property) && matches(property))
        .map((property) => property.id);
      return paginate(ids, query.page, query.per_page);
    },

    getBulkPropertyDetails: (request, reply) => {
      const { query } = inputOf(request);
      const ids = requestedIds(query);
      if (!ids) return sendBadRequest(reply, PROPERTY_IDS_REQUIRED);
      const dataset = context.dataset();
      const found = ids
        .map((id) => dataset.propertyById.get(id))
        .filter((property) => property !== undefined);
      const refused = chargeBulkExportQuota(
        context,
        request,
        reply,
        query.account_id as number,
        found.length,
      );
      if (refused) return refused;
      const options = currentRecordOptions(context, request);
      return { data: found.map((property) => propertyEnvelope(dataset, property, options)) };
    },
  };
}
