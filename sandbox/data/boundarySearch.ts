import booleanIntersects from "@turf/boolean-intersects";
import type { Dataset } from "./dataset";
import type { ShapeVariant } from "../variant";
import { boundaryWords } from "./boundaryNames";
import type { Boundary, GeoType } from "./geography";

/** Geo type relevance in the result order: bigger, more commonly searched areas first. */
const TYPE_WEIGHT: Record<GeoType, number> = {
  MSA: 6,
  BespokeSubmarket: 5,
  County: 4,
  CensusPlace: 3,
  ZipCode: 2,
  Neighborhood: 1,
};

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * How well a name matches the search text: 4 exact, 3 prefix, 2 every word of the text starts a
 * word of the name, 1 substring, 0 no match.
 */
export function matchQuality(name: string, query: string): number {
  const normalizedName = name.toLowerCase();
  const normalizedQuery = query.trim().toLowerCase();
  if (normalizedName === normalizedQuery) return 4;
  if (normalizedName.startsWith(normalizedQuery)) return 3;
  const nameWords = words(name);
  const queryWords = words(query);
  if (
    queryWords.length > 0 &&
    queryWords.every((word) => nameWords.some((candidate) => candidate.startsWith(word)))
  )
    return 2;
  return normalizedName.includes(normalizedQuery) ? 1 : 0;
}

function bboxesOverlap(a: Boundary["bbox"], b: Boundary["bbox"]): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** Boundaries whose polygons intersect the given one (itself excluded). */
export function intersectingBoundaries(dataset: Dataset, target: Boundary): Set<number> {
  const ids = new Set<number>();
  for (const candidate of dataset.geography.boundaries) {
    if (candidate.id === target.id || !bboxesOverlap(candidate.bbox, target.bbox)) continue;
    if (booleanIntersects(candidate.polygon, target.polygon)) ids.add(candidate.id);
  }
  return ids;
}

export interface BoundarySearch {
  query: string;
  geoTypes: GeoType[] | undefined;
  limit: number;
  intersecting: Set<number> | undefined;
  /** How the variant names boundaries: the search matches the names it answers with. */
  names: ShapeVariant["boundaryNames"];
}

/** Matching boundaries, best first: match quality, then property count weighted by geo type. */
export function searchBoundaries(dataset: Dataset, search: BoundarySearch): Boundary[] {
  const matchAll = search.query.trim() === "" || search.query.trim() === "*";
  const types = search.geoTypes ? new Set(search.geoTypes) : undefined;
  const propertyCount = (boundary: Boundary) => dataset.propertiesByBoundary.get(boundary.id)?.length ?? 0;
  return dataset.geography.boundaries
    .filter((boundary) => !types || types.has(boundary.geoType))
    .filter((boundary) => !search.intersecting || search.intersecting.has(boundary.id))
    .map((boundary) => ({
      boundary,
      quality: matchAll ? 1 : matchQuality(boundaryWords(boundary, search.names).name, search.query),
    }))
    .filter((entry) => entry.quality > 0)
    .map((entry) => ({
      ...entry,
      weight: (propertyCount(entry.boundary) + 1) * TYPE_WEIGHT[entry.boundary.geoType],
    }))
    .sort((a, b) => b.quality - a.quality || b.weight - a.weight || a.boundary.id - b.boundary.id)
    .slice(0, search.limit)
    .map((entry) => entry.boundary);
}
