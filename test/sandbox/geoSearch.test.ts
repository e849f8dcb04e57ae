import { datasetFor } from "../../sandbox/data/dataset";
import { ACCOUNT, startTestSandbox, type TestSandbox } from "./support/fixtures";

let t: TestSandbox;
const dataset = datasetFor(1, 20_000);

beforeAll(async () => {
  t = await startTestSandbox();
});

afterAll(async () => {
  await t.sandbox.close();
});

interface Result {
  id: string;
  attributes: {
    id: number;
    name: string;
    geo_type: string;
    property_count: number;
    centroid: number[];
    place_type: string | null;
  };
}

async function search(json: object): Promise<Result[]> {
  const response = await t.client.as<{ data: Result[] }>("demo-base", "POST", "/v1/geo_boundaries/search", {
    json: { account_id: ACCOUNT.base, ...json },
  });
  expect(response.status).toBe(200);
  return response.body.data;
}

describe("POST /geo_boundaries/search", () => {
  it("matches partially and at word starts, case-insensitively", async () => {
    const partial = await search({ query: "allas", limit: 1000 });
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.every((result) => result.attributes.name.toLowerCase().includes("allas"))).toBe(true);
    const wordStart = await search({ query: "fort wor", geo_type: "MSA" });
    expect(wordStart.map((result) => result.attributes.name)).toEqual(["Dallas-Fort Worth-Arlington, TX"]);
    const byWords = await search({ query: "dallas north", limit: 1000 });
    expect(byWords.map((r) => r.attributes.name).sort()).toEqual(["Dallas Northeast", "Dallas Northwest"]);
  });

  it("returns all boundaries for `*` or no query, limited by `limit` (default 10)", async () => {
    expect(await search({})).toHaveLength(10);
    expect(await search({ query: "*", limit: 1000 })).toHaveLength(1000);
    expect(await search({ limit: 1 })).toHaveLength(1);
    for (const limit of [0, 1001]) {
      const response = await t.client.as("demo-base", "POST", "/v1/geo_boundaries/search", {
        json: { account_id: ACCOUNT.base, limit },
      });
      expect(response.status).toBe(400);
    }
  });

  it("orders exact and prefix matches first, then by property count weighted by geo type", async () => {
    const results = await search({ query: "Austin", limit: 20 });
    expect(results[0]?.attributes.name).toBe("Austin-Round Rock-Georgetown, TX");
    const all = await search({ limit: 40 });
    expect(all.slice(0, 5).every((result) => result.attributes.geo_type === "MSA")).toBe(true);
  });

  it("takes geo_type as a string or an array", async () => {
    const zips = await search({ geo_type: "ZipCode", limit: 1000 });
    expect(new Set(zips.map((r) => r.attributes.geo_type))).toEqual(new Set(["ZipCode"]));
    const mixed = await search({ geo_type: ["County", "Neighborhood"], limit: 1000 });
    expect(new Set(mixed.map((r) => r.attributes.geo_type))).toEqual(new Set(["County", "Neighborhood"]));
    expect(mixed).toHaveLength(
      dataset.geography.boundaries.filter((b) => b.geoType === "County" || b.geoType === "Neighborhood")
        .length,
    );
  });

  it("says `Invalid geo type: <value>` for an unknown type", async () => {
    for (const geoType of ["State", ["MSA", "State"]]) {
      const response = await t.client.as("demo-base", "POST", "/v1/geo_boundaries/search", {
        json: { account_id: ACCOUNT.base, geo_type: geoType },
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: "Invalid geo type: State" });
    }
  });

  it("restricts to boundaries intersecting another one", async () => {
    const submarket = dataset.geography.boundaries.find(
      (b) => b.geoType === "BespokeSubmarket" && b.msaIndex === 3,
    );
    if (!submarket) throw new Error("no submarket");
    const results = await search({ intersects_geo_boundary_id: submarket.id, limit: 1000 });
    const counts = results.reduce<Record<string, number>>(
      (acc, r) => ({ ...acc, [r.attributes.geo_type]: (acc[r.attributes.geo_type] ?? 0) + 1 }),
      {},
    );
    // A quadrant lies in its MSA and one county, holds four ZIP cells and touches one neighborhood and the city and a suburb.
    expect(counts).toEqual({ MSA: 1, County: 1, ZipCode: 4, CensusPlace: 2, Neighborhood: 1 });
    expect(results.some((r) => r.attributes.id === submarket.id)).toBe(false);
  });

  it("reports property counts and centroids that match the data", async () => {
    const [msa] = await search({ query: "Denver-Aurora-Lakewood, CO" });
    expect(msa?.attributes.property_count).toBe(
      dataset.propertiesByBoundary.get(msa?.attributes.id ?? 0)?.length,
    );
    expect(msa?.attributes.centroid[0]).toBeCloseTo(39.7392, 3);
  });
});
