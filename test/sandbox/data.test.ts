import booleanIntersects from "@turf/boolean-intersects";
import booleanPointInPolygon from "@turf/boolean-point-in-polygon";
import { point } from "@turf/helpers";
import { datasetFor } from "../../sandbox/data/dataset";
import { buildGeography } from "../../sandbox/data/geography";
import { geoTypeValues } from "../../src/api/schema";
import { buildProperties } from "../../sandbox/data/properties";
import { MSAS } from "../../sandbox/data/msas";
import { propertySeries } from "../../sandbox/data/forecastModel";
import { listedUnits } from "../../sandbox/data/units";
import { ACCOUNT, startTestSandbox, type TestSandbox } from "./support/fixtures";

/** Rules about the synthetic data itself, checked on the dataset and through the API. */
const dataset = datasetFor(1, 20_000);

describe("geography", () => {
  it("has at least 30 real MSAs, each with every boundary type", () => {
    const msas = dataset.geography.boundaries.filter((boundary) => boundary.geoType === "MSA");
    expect(msas.length).toBeGreaterThanOrEqual(30);
    expect(msas.map((msa) => msa.name)).toContain("Dallas-Fort Worth-Arlington, TX");
    for (const type of geoTypeValues) {
      const perMsa = new Set(
        dataset.geography.boundaries.filter((b) => b.geoType === type).map((b) => b.msaIndex),
      );
      expect({ type, msas: perMsa.size }).toEqual({ type, msas: MSAS.length });
    }
  });

  it("keeps MSAs apart: no two MSA polygons intersect", () => {
    const msas = dataset.geography.boundaries.filter((boundary) => boundary.geoType === "MSA");
    const overlaps = msas.flatMap((a, i) =>
      msas
        .slice(i + 1)
        .filter((b) => booleanIntersects(a.polygon, b.polygon))
        .map((b) => `${a.name} / ${b.name}`),
    );
    expect(overlaps).toEqual([]);
  });

  it("puts every property inside the polygons of the boundaries it belongs to", () => {
    for (const property of dataset.properties.filter((_, index) => index % 97 === 0)) {
      const at = point([property.longitude, property.latitude]);
      const memberships = [
        property.msaId,
        property.submarketId,
        property.countyId,
        property.zipId,
        property.placeId,
        property.neighborhoodId,
      ];
      for (const boundaryId of memberships) {
        if (boundaryId === null) continue;
        const boundary = dataset.boundary(boundaryId);
        expect({
          property: property.id,
          boundaryId,
          inside: boundary && booleanPointInPolygon(at, boundary.polygon),
        }).toEqual({
          property: property.id,
          boundaryId,
          inside: true,
        });
      }
    }
  });
});

describe("properties", () => {
  it("has at least 20,000 properties with unique ids", () => {
    expect(dataset.properties.length).toBeGreaterThanOrEqual(20_000);
    expect(new Set(dataset.properties.map((property) => property.id)).size).toBe(dataset.properties.length);
  });

  it("has some properties without a current rent and some without forecasts", () => {
    expect(dataset.properties.filter((property) => property.askingRent === null).length).toBeGreaterThan(100);
    const withoutForecast = dataset.properties.find(
      (property) => !property.hasForecast && property.askingRent !== null,
    );
    expect(withoutForecast).toBeDefined();
    if (withoutForecast)
      expect(
        propertySeries(dataset, withoutForecast, "rent_growth_rate_yoy").every((value) => value === null),
      ).toBe(true);
  });

  it("covers every unified status and property class", () => {
    expect(new Set(dataset.properties.map((p) => p.unifiedStatus))).toEqual(
      new Set(["stabilized", "planning", "scheduled_construction", "under_construction", "lease_up"]),
    );
    expect(new Set(dataset.properties.map((p) => p.propertyClass))).toEqual(new Set(["A", "B", "C"]));
  });

  it("is deterministic per seed (two fresh builds agree) and differs between seeds", () => {
    const build = (seed: number) => buildProperties(seed, 2_000, buildGeography(seed));
    expect(JSON.stringify(build(7))).toBe(JSON.stringify(build(7)));
    expect(build(8).map((p) => p.askingRent)).not.toEqual(build(7).map((p) => p.askingRent));
  });
});

describe("unit listings", () => {
  it("are a function of the day alone: asked in any order, each day lists the same units", () => {
    // Units are kept per dataset object: two copies of the dataset have units of their own, asked apart.
    const [forward, backward] = [{ ...dataset }, { ...dataset }];
    const property = dataset.properties.find((candidate) => candidate.askingRent !== null);
    if (!property) throw new Error("no property with a rent");
    const days = Array.from({ length: 200 }, (_, index) => 20_000 + index * 3);
    const listed = (copy: typeof dataset, day: number) =>
      listedUnits(copy, property, day, 20_600).map((unit) => unit.spec.key);
    const asked = new Map(days.map((day) => [day, listed(forward, day)]));
    for (const day of [...days].reverse())
      expect({ day, keys: listed(backward, day) }).toEqual({ day, keys: asked.get(day) });
    // Units come and go over the days, so the order could matter.
    expect(new Set([...asked.values()].map((keys) => keys.join())).size).toBeGreaterThan(10);
  });
});

describe("through the API", () => {
  let t: TestSandbox;
  let other: TestSandbox;

  beforeAll(async () => {
    t = await startTestSandbox();
    other = await startTestSandbox();
  });

  afterAll(async () => {
    await Promise.all([t.sandbox.close(), other.sandbox.close()]);
  });

  it("answers identically from two sandboxes with the same seed", async () => {
    const path = `/v1/properties/bulk_details?account_id=${ACCOUNT.proPlus}&property_ids=100001,105000,119999`;
    const a = await t.client.as("demo-proplus", "GET", path);
    const b = await other.client.as("demo-proplus", "GET", path);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
  });

  it("gives market metrics for every MSA and submarket", async () => {
    for (const geoType of ["MSA", "BespokeSubmarket"]) {
      const response = await t.client.as<{ data: { attributes: Record<string, unknown> }[] }>(
        "demo-pro",
        "POST",
        "/v1/explore_markets",
        {
          json: { account_id: ACCOUNT.pro, market_filters: { geo_type: geoType }, limit: 100 },
        },
      );
      const expected = dataset.geography.boundaries.filter((boundary) => boundary.geoType === geoType).length;
      expect(response.body.data.length).toBe(Math.min(100, expected));
      expect(response.body.data.every((market) => typeof market.attributes.rent_avg_t30 === "number")).toBe(
        true,
      );
    }
  });
});
