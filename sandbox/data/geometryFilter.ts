import booleanPointInPolygon from "@turf/boolean-point-in-polygon";
import { point } from "@turf/helpers";
import type { MultiPolygon, Polygon, Position } from "geojson";
import type { PropertyCore } from "./properties";

export type SearchGeometry = Polygon | MultiPolygon;

function rings(geometry: SearchGeometry): Position[][] {
  return geometry.type === "Polygon" ? geometry.coordinates : geometry.coordinates.flat();
}

/** A message naming what is wrong with a GeoJSON geometry the schema cannot check, or undefined. */
export function geometryProblem(geometry: SearchGeometry): string | undefined {
  for (const ring of rings(geometry)) {
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (!first || !last || first[0] !== last[0] || first[1] !== last[1]) {
      return "geometry rings must be closed (first position equal to the last)";
    }
    for (const position of ring) {
      const [lng = NaN, lat = NaN] = position;
      if (Math.abs(lng) > 180 || Math.abs(lat) > 90)
        return "geometry positions must be [longitude, latitude] in degrees";
    }
  }
  return undefined;
}

/** A fast bounding-box check in front of turf's exact point-in-polygon test. */
export function insideGeometry(geometry: SearchGeometry): (property: PropertyCore) => boolean {
  const positions = rings(geometry).flat();
  const lngs = positions.map((position) => position[0] ?? 0);
  const lats = positions.map((position) => position[1] ?? 0);
  const [minLng, maxLng, minLat, maxLat] = [
    Math.min(...lngs),
    Math.max(...lngs),
    Math.min(...lats),
    Math.max(...lats),
  ];
  return (property) =>
    property.longitude >= minLng &&
    property.longitude <= maxLng &&
    property.latitude >= minLat &&
    property.latitude <= maxLat &&
    booleanPointInPolygon(point([property.longitude, property.latitude]), geometry);
}
