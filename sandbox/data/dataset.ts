import { buildGeography, type Boundary, type Geography } from "./geography";
import { buildProperties, type PropertyCore } from "./properties";

/** The eagerly built part of the synthetic data; everything else is derived from it on demand. */
export interface Dataset {
  seed: number;
  geography: Geography;
  properties: PropertyCore[];
  propertyById: Map<number, PropertyCore>;
  /** Properties inside each boundary, by boundary id. */
  propertiesByBoundary: Map<number, PropertyCore[]>;
  boundary(id: number): Boundary | undefined;
}

function indexByBoundary(properties: PropertyCore[]): Map<number, PropertyCore[]> {
  const index = new Map<number, PropertyCore[]>();
  const add = (boundaryId: number | null, property: PropertyCore) => {
    if (boundaryId === null) return;
    const members = index.get(boundaryId);
    if (members) members.push(property);
    else index.set(boundaryId, [property]);
  };
  for (const property of properties) {
    add(property.msaId, property);
    add(property.submarketId, property);
    add(property.countyId, property);
    add(property.zipId, property);
    add(property.placeId, property);
    add(property.neighborhoodId, property);
  }
  return index;
}

const memo = new Map<string, Dataset>();

/**
 * The dataset for a seed and size, built once per process: every sandbox in a jest worker with
 * the same seed shares it (it is never mutated).
 */
export function datasetFor(seed: number, propertyCount: number): Dataset {
  const key = `${seed}:${propertyCount}`;
  const existing = memo.get(key);
  if (existing) return existing;
  const geography = buildGeography(seed);
  const properties = buildProperties(seed, propertyCount, geography);
  const dataset: Dataset = {
    seed,
    geography,
    properties,
    propertyById: new Map(properties.map((property) => [property.id, property])),
    propertiesByBoundary: indexByBoundary(properties),
    boundary: (id) => geography.byId.get(id),
  };
  memo.set(key, dataset);
  return dataset;
}
