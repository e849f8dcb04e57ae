import { inputOf, type OperationHandlers, type SandboxContext } from "../context";
import { boundaryWords } from "../data/boundaryNames";
import { intersectingBoundaries, searchBoundaries } from "../data/boundarySearch";
import type { GeoType } from "../data/geography";
import { sendBadRequest } from "../http/errors";
import { shapeOf } from "../variant";

interface GeoSearchBody {
  account_id: number;
  query: string;
  geo_type?: GeoType | GeoType[];
  limit: number;
  intersects_geo_boundary_id?: number;
}

/** POST /geo_boundaries/search. */
export function geoBoundaryHandlers(context: SandboxContext): Pick<OperationHandlers, "searchGeoBoundaries"> {
  const names = shapeOf(context.options.variant).boundaryNames;
  return {
    searchGeoBoundaries: (request, reply) => {
      const body = inputOf(request).body as GeoSearchBody;
      const dataset = context.dataset();
      let intersecting: Set<number> | undefined;
      if (body.intersects_geo_boundary_id !== undefined) {
        const target = dataset.boundary(body.intersects_geo_boundary_id);
        if (!target) {
          return sendBadRequest(
            reply,
            `intersects_geo_boundary_id: geo boundary ${body.intersects_geo_boundary_id} does not exist`,
          );
        }
        intersecting = intersectingBoundaries(dataset, target);
      }
      const geoTypes =
        body.geo_type === undefined
          ? undefined
          : Array.isArray(body.geo_type)
            ? body.geo_type
            : [body.geo_type];
      const results = searchBoundaries(dataset, {
        query: body.query,
        geoTypes,
        limit: body.limit,
        intersecting,
        names,
      });
      return {
        data: results.map((boundary) => ({
          id: String(boundary.id),
          type: "geo_boundary_search_result",
          attributes: {
            id: boundary.id,
            ...boundaryWords(boundary, names),
            geo_type: boundary.geoType,
            centroid: boundary.centroid,
            property_count: dataset.propertiesByBoundary.get(boundary.id)?.length ?? 0,
            place_type: boundary.placeType,
          },
        })),
      };
    },
  };
}
