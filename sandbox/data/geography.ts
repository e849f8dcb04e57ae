import type { Polygon } from "geojson";
import type { components } from "../../src/api/schema";
import { MSAS, placeState, type MsaSeed } from "./msas";
import { Random, SALT } from "./random";

export type GeoType = components["schemas"]["GeoType"];

export interface Boundary {
  id: number;
  name: string;
  shortName: string;
  description: string;
  geoType: GeoType;
  placeType: string | null;
  states: string[];
  /** [latitude, longitude], the order the service uses. */
  centroid: [number, number];
  polygon: Polygon;
  /** [minLng, minLat, maxLng, maxLat]. */
  bbox: [number, number, number, number];
  msaIndex: number;
  /** For ZIP codes and neighborhoods: the submarket they lie in (forecast fallback, naming). */
  submarketId: number | null;
}

/**
 * Each MSA is a rectangle split into a 4x4 grid of ZIP cells. Submarkets are its quadrants,
 * counties its west and east halves, census places the principal city (the centre 2x2) and two
 * suburbs (the north and south rows), and neighborhoods diamonds inside the four central cells.
 * Arithmetic on the grid says which boundaries contain a point, and the polygons say the same.
 */
export const GRID = 4;
export const HALF_HEIGHT_DEG = 0.18;
export const HALF_WIDTH_DEG = 0.24;
/** Polygons are inset from grid lines so neighbours do not touch (touching would count as intersecting). */
export const INSET_DEG = 0.002;
const CELL_HEIGHT = (2 * HALF_HEIGHT_DEG) / GRID;
const CELL_WIDTH = (2 * HALF_WIDTH_DEG) / GRID;

/** The row/column span of a boundary in its MSA's grid (end exclusive). */
interface CellSpan {
  row0: number;
  row1: number;
  col0: number;
  col1: number;
}

export function msaOrigin(msa: MsaSeed): { lat: number; lng: number } {
  return { lat: msa.latitude - HALF_HEIGHT_DEG, lng: msa.longitude - HALF_WIDTH_DEG };
}

/** Coordinates to a millionth of a degree (about 10 cm): clean output, no floating-point noise. */
function micro(degrees: number): number {
  return Math.round(degrees * 1e6) / 1e6;
}

function rectangle(msa: MsaSeed, span: CellSpan): Polygon {
  const origin = msaOrigin(msa);
  const south = micro(origin.lat + span.row0 * CELL_HEIGHT + INSET_DEG);
  const north = micro(origin.lat + span.row1 * CELL_HEIGHT - INSET_DEG);
  const west = micro(origin.lng + span.col0 * CELL_WIDTH + INSET_DEG);
  const east = micro(origin.lng + span.col1 * CELL_WIDTH - INSET_DEG);
  return {
    type: "Polygon",
    coordinates: [
      [
        [west, south],
        [east, south],
        [east, north],
        [west, north],
        [west, south],
      ],
    ],
  };
}

/** The neighborhood diamond inscribed in one grid cell (half-diagonals a third of the cell). */
export function diamondOf(
  msa: MsaSeed,
  row: number,
  col: number,
): { lat: number; lng: number; dLat: number; dLng: number } {
  const origin = msaOrigin(msa);
  return {
    lat: origin.lat + (row + 0.5) * CELL_HEIGHT,
    lng: origin.lng + (col + 0.5) * CELL_WIDTH,
    dLat: CELL_HEIGHT / 3,
    dLng: CELL_WIDTH / 3,
  };
}

function diamond(msa: MsaSeed, row: number, col: number): Polygon {
  const { lat, lng, dLat, dLng } = diamondOf(msa, row, col);
  const ring = [
    [lng, lat - dLat],
    [lng + dLng, lat],
    [lng, lat + dLat],
    [lng - dLng, lat],
    [lng, lat - dLat],
  ];
  return { type: "Polygon", coordinates: [ring.map(([x = 0, y = 0]) => [micro(x), micro(y)])] };
}

function bboxOf(polygon: Polygon): [number, number, number, number] {
  const ring = polygon.coordinates[0] ?? [];
  const lngs = ring.map((point) => point[0] ?? 0);
  const lats = ring.map((point) => point[1] ?? 0);
  return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)];
}

function centroidOf(bbox: [number, number, number, number]): [number, number] {
  return [micro((bbox[1] + bbox[3]) / 2), micro((bbox[0] + bbox[2]) / 2)];
}

export const SUBMARKET_QUADRANTS = ["Southwest", "Southeast", "Northwest", "Northeast"] as const;
export const NEIGHBORHOOD_NAMES = ["Old Town", "Riverside", "Downtown", "Midtown"] as const;

/** Ids of every boundary of one MSA, by role, so a grid cell maps to its boundaries in O(1). */
export interface MsaBoundaryIds {
  msa: number;
  /** Index: quadrant (row >= 2 ? 2 : 0) + (col >= 2 ? 1 : 0). */
  submarkets: number[];
  /** Index: col >= 2 ? 1 : 0. */
  counties: number[];
  /** Index: row * 4 + col. */
  zips: number[];
  /** [principal city, north suburb, south suburb]. */
  places: number[];
  /** Index: (row - 1) * 2 + (col - 1) for the central cells. */
  neighborhoods: number[];
}

export interface Geography {
  boundaries: Boundary[];
  byId: Map<number, Boundary>;
  msaBoundaryIds: MsaBoundaryIds[];
}

/** Every boundary of every MSA. Ids are stable for a given MSA list (not seed-dependent). */
export function buildGeography(seed: number): Geography {
  const boundaries: Boundary[] = [];
  const msaBoundaryIds: MsaBoundaryIds[] = [];
  let nextId = 1000;
  MSAS.forEach((msa, msaIndex) => {
    const random = Random.of(seed, SALT.boundary, msaIndex);
    const add = (
      geoType: GeoType,
      name: string,
      shortName: string,
      description: string,
      polygon: Polygon,
      placeType: string | null = null,
      submarketId: number | null = null,
      boundaryState = msa.states[0] ?? "",
    ): number => {
      const bbox = bboxOf(polygon);
      const boundary: Boundary = {
        id: nextId++,
        name,
        shortName,
        description,
        geoType,
        placeType,
        states: geoType === "MSA" ? msa.states : [boundaryState],
        centroid: centroidOf(bbox),
        polygon,
        bbox,
        msaIndex,
        submarketId,
      };
      boundaries.push(boundary);
      return boundary.id;
    };
    const state = msa.states[0] ?? "";
    const ids: MsaBoundaryIds = {
      msa: add(
        "MSA",
        msa.name,
        msa.city,
        `Metropolitan statistical area ${msa.name}`,
        rectangle(msa, { row0: 0, row1: 4, col0: 0, col1: 4 }),
      ),
      submarkets: [],
      counties: [],
      zips: [],
      places: [],
      neighborhoods: [],
    };
    SUBMARKET_QUADRANTS.forEach((quadrant, index) => {
      const row0 = index >= 2 ? 2 : 0;
      const col0 = index % 2 === 1 ? 2 : 0;
      const name = `${msa.city} ${quadrant}`;
      ids.submarkets.push(
        add(
          "BespokeSubmarket",
          name,
          name,
          `${quadrant} submarket of ${msa.city}`,
          rectangle(msa, { row0, row1: row0 + 2, col0, col1: col0 + 2 }),
        ),
      );
    });
    msa.counties.forEach((county, index) => {
      ids.counties.push(
        add(
          "County",
          `${county}, ${state}`,
          county,
          `${county} in the ${msa.city} MSA`,
          rectangle(msa, { row0: 0, row1: 4, col0: index * 2, col1: index * 2 + 2 }),
        ),
      );
    });
    for (let row = 0; row < GRID; row++) {
      for (let col = 0; col < GRID; col++) {
        const zip = `${msa.zipPrefix}${String(row * GRID + col + 1 + random.int(0, 3) * 16).padStart(2, "0")}`;
        const submarketId = ids.submarkets[(row >= 2 ? 2 : 0) + (col >= 2 ? 1 : 0)] ?? null;
        ids.zips.push(
          add(
            "ZipCode",
            zip,
            zip,
            `ZIP code ${zip}, ${state}`,
            rectangle(msa, { row0: row, row1: row + 1, col0: col, col1: col + 1 }),
            null,
            submarketId,
          ),
        );
      }
    }
    ids.places.push(
      add(
        "CensusPlace",
        `${msa.city}, ${state}`,
        msa.city,
        `City of ${msa.city}`,
        rectangle(msa, { row0: 1, row1: 3, col0: 1, col1: 3 }),
        "city",
      ),
    );
    ids.places.push(
      add(
        "CensusPlace",
        `${msa.suburbs[0]}, ${placeState(msa, 1)}`,
        msa.suburbs[0],
        `${msa.suburbs[0]}, north of ${msa.city}`,
        rectangle(msa, { row0: 3, row1: 4, col0: 0, col1: 4 }),
        "city",
        null,
        placeState(msa, 1),
      ),
    );
    ids.places.push(
      add(
        "CensusPlace",
        `${msa.suburbs[1]}, ${placeState(msa, 2)}`,
        msa.suburbs[1],
        `${msa.suburbs[1]}, south of ${msa.city}`,
        rectangle(msa, { row0: 0, row1: 1, col0: 0, col1: 4 }),
        "town",
        null,
        placeState(msa, 2),
      ),
    );
    NEIGHBORHOOD_NAMES.forEach((neighborhood, index) => {
      const row = 1 + Math.floor(index / 2);
      const col = 1 + (index % 2);
      const submarketId = ids.submarkets[(row >= 2 ? 2 : 0) + (col >= 2 ? 1 : 0)] ?? null;
      const name = `${neighborhood}, ${msa.city}`;
      ids.neighborhoods.push(
        add(
          "Neighborhood",
          name,
          neighborhood,
          `${neighborhood} neighborhood of ${msa.city}`,
          diamond(msa, row, col),
          null,
          submarketId,
        ),
      );
    });
    msaBoundaryIds.push(ids);
  });
  return { boundaries, byId: new Map(boundaries.map((boundary) => [boundary.id, boundary])), msaBoundaryIds };
}
