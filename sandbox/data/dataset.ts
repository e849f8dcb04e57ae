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

/**
 * Built datasets by seed and size. Jest loads this module afresh for every test file; its test environment
 * lends a map that lasts as long as the worker (test/support/workerScope.ts), so the worker's files share it.
 */
const memo: Map<string, Dataset> =
  (globalThis as { sandboxDatasets?: Map<string, Dataset> }).sandboxDatasets ?? new Map();

/**
 * The dataset for a seed and size, built once per process (once per jest worker): every sandbox with the
 * same seed and size shares it (it is never mutated).
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
