import { distance } from "@turf/distance";
import { datasetFor } from "../../sandbox/data/dataset";
import type { PropertyCore } from "../../sandbox/data/properties";
import { MAX_BULK_DETAILS_IDS } from "../../sandbox/server";
import { ACCOUNT, startTestSandbox, type TestSandbox } from "./support/fixtures";

let t: TestSandbox;
const dataset = datasetFor(1, 20_000);
const pro = ACCOUNT.pro;

beforeAll(async () => {
  t = await startTestSandbox();
});

afterAll(async () => {
  await t.sandbox.close();
});

interface Page<T> {
  data: T[];
  pagination: { current_page: number; total_pages: number; total_count: number; per_page: number };
}

type Record = { id: string; attributes: { [key: string]: unknown } };

async function lookupAll(query: string): Promise<number[]> {
  const response = await t.client.as<Page<number>>(
    "demo-pro",
    "GET",
    `/v1/properties/lookup?account_id=${pro}&per_page=200&${query}`,
  );
  expect(response.status).toBe(200);
  expect(response.body.pagination.total_count).toBeLessThanOrEqual(200);
  return response.body.data;
}

function idsWhere(predicate: (property: PropertyCore) => boolean): number[] {
  return dataset.properties.filter(predicate).map((property) => property.id);
}

describe("GET /properties/lookup", () => {
  const sample = dataset.properties.find(
    (property) => property.sale !== null && property.loanMaturityDate !== null,
  );
  if (!sample?.sale || !sample.loanMaturityDate)
    throw new Error("dataset lacks a property with a sale and a loan");
  const { sale, loanMaturityDate } = sample;

  it.each([
    [
      "city + state",
      `city=${encodeURIComponent(sample.city)}&state=${sample.state}&unit_count_gte=${sample.unitCount}&unit_count_lte=${sample.unitCount}`,
      (p: PropertyCore) =>
        p.city === sample.city && p.state === sample.state && p.unitCount === sample.unitCount,
    ],
    [
      "address (partial)",
      `address=${encodeURIComponent(sample.address.slice(0, 8).toLowerCase())}`,
      (p: PropertyCore) => p.address.toLowerCase().includes(sample.address.slice(0, 8).toLowerCase()),
    ],
    [
      "property_name (partial)",
      `property_name=${encodeURIComponent(sample.name.slice(-12))}&state=${sample.state}&property_class=${sample.propertyClass}&number_of_stories_gte=${sample.stories}`,
      (p: PropertyCore) =>
        p.name.includes(sample.name.slice(-12)) &&
        p.state === sample.state &&
        p.propertyClass === sample.propertyClass &&
        p.stories >= sample.stories,
    ],
    [
      "property_url (partial)",
      `property_url=${encodeURIComponent(`-${sample.id}`)}`,
      (p: PropertyCore) => p.url.includes(`-${sample.id}`),
    ],
    [
      "loan maturity",
      `loan_maturity_date_gte=${loanMaturityDate}&loan_maturity_date_lte=${loanMaturityDate}`,
      (p: PropertyCore) => p.loanMaturityDate === loanMaturityDate,
    ],
    [
      "transaction date closed",
      `transaction_date_closed_gte=${sale.dateClosed}&transaction_date_closed_lte=${sale.dateClosed}`,
      (p: PropertyCore) => p.sale?.dateClosed === sale.dateClosed,
    ],
    [
      "transaction cap rate + price per unit",
      `transaction_cap_rate_gte=${sale.capRate}&transaction_cap_rate_lte=${sale.capRate}&transaction_price_per_unit_gte=${sale.pricePerUnit - 1000}&transaction_price_per_unit_lte=${sale.pricePerUnit + 1000}`,
      (p: PropertyCore) =>
        p.sale !== null &&
        p.sale.capRate === sale.capRate &&
        Math.abs(p.sale.pricePerUnit - sale.pricePerUnit) <= 1000,
    ],
  ])("filters by %s", async (_name, query, predicate) => {
    const expected = idsWhere(predicate);
    expect(expected).toContain(sample.id);
    expect(await lookupAll(query)).toEqual(expected);
  });

  it("searches a radius of 0.5 miles by default, with lat/lng aliases and a radius option", async () => {
    // Distances from an independent great-circle formula (turf), not the sandbox's own.
    const near = (miles: number) =>
      idsWhere(
        (p) =>
          distance([sample.longitude, sample.latitude], [p.longitude, p.latitude], { units: "miles" }) <=
          miles,
      );
    expect(await lookupAll(`latitude=${sample.latitude}&longitude=${sample.longitude}`)).toEqual(near(0.5));
    expect(await lookupAll(`lat=${sample.latitude}&lng=${sample.longitude}&radius=1.5`)).toEqual(near(1.5));
    expect(near(1.5).length).toBeGreaterThan(near(0.5).length);
  });

  it("measures the radius in miles: a property just inside R miles (but beyond R km) is found, one just beyond R miles is not", async () => {
    // Distances from an independent great-circle formula (turf), not the sandbox's own.
    const miles = (p: PropertyCore) =>
      distance([sample.longitude, sample.latitude], [p.longitude, p.latitude], { units: "miles" });
    const neighbour = dataset.properties
      .filter((p) => p.id !== sample.id && miles(p) > 0.2)
      .reduce((nearest, p) => (miles(p) < miles(nearest) ? p : nearest));
    const d = miles(neighbour);
    const at = `latitude=${sample.latitude}&longitude=${sample.longitude}`;
    // d <= 1.1 d miles, while d miles = 1.61 d km > 1.1 d km: inside in miles, outside in kilometres.
    expect(await lookupAll(`${at}&radius=${(d * 1.1).toFixed(4)}`)).toContain(neighbour.id);
    expect(await lookupAll(`${at}&radius=${(d * 0.95).toFixed(4)}`)).not.toContain(neighbour.id);
  });

  it("pages results with per_page 1..200 and page >= 1", async () => {
    const first = await t.client.as<Page<number>>(
      "demo-pro",
      "GET",
      `/v1/properties/lookup?account_id=${pro}&per_page=3&page=2`,
    );
    expect(first.body.data).toEqual(dataset.properties.slice(3, 6).map((p) => p.id));
    expect(first.body.pagination).toEqual({
      current_page: 2,
      total_pages: Math.ceil(dataset.properties.length / 3),
      total_count: dataset.properties.length,
      per_page: 3,
    });
    const defaults = await t.client.as<Page<number>>(
      "demo-pro",
      "GET",
      `/v1/properties/lookup?account_id=${pro}`,
    );
    expect(defaults.body.pagination.per_page).toBe(100);
    for (const bad of ["per_page=201", "per_page=0", "page=0"]) {
      const response = await t.client.as("demo-pro", "GET", `/v1/properties/lookup?account_id=${pro}&${bad}`);
      expect(response.status).toBe(400);
    }
  });

  it("requires latitude and longitude together", async () => {
    const response = await t.client.as(
      "demo-pro",
      "GET",
      `/v1/properties/lookup?account_id=${pro}&latitude=32.7`,
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: "latitude and longitude must be given together" });
  });

  it("says `account_id is required` without one", async () => {
    const response = await t.client.as("demo-pro", "GET", "/v1/properties/lookup?city=Dallas");
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: "account_id is required" });
  });
});

describe("GET /properties/bulk_details", () => {
  it("returns found properties in request order, without duplicates or unknown ids", async () => {
    const response = await t.client.as<{ data: Record[] }>(
      "demo-pro",
      "GET",
      `/v1/properties/bulk_details?account_id=${pro}&property_ids=100005,100002,100005,99,100009`,
    );
    expect(response.status).toBe(200);
    expect(response.body.data.map((record) => record.id)).toEqual(["100005", "100002", "100009"]);
    const record = response.body.data[0];
    const core = dataset.propertyById.get(100005);
    expect(record?.attributes).toMatchObject({
      property_id: 100005,
      property_name: core?.name,
      market_geo_boundary_id: core?.msaId,
      submarket_geo_boundary_id: core?.submarketId,
      market_name: expect.any(String),
      submarket_name: expect.any(String),
    });
  });

  it("accepts the repeated property_ids[] form", async () => {
    const response = await t.client.as<{ data: Record[] }>(
      "demo-pro",
      "GET",
      `/v1/properties/bulk_details?account_id=${pro}&property_ids[]=100003&property_ids[]=100004`,
    );
    expect(response.body.data.map((record) => record.id)).toEqual(["100003", "100004"]);
  });

  it("names malformed ids, a repeated comma form and too many repeated ids", async () => {
    const cases: [string, string][] = [
      ["&property_ids=1,,2", "property_ids must be a comma-separated list of property ids"],
      ["&property_ids=abc", "property_ids must be a comma-separated list of property ids"],
      [
        "&property_ids=1&property_ids=2",
        "property_ids must be given once, as a comma-separated list (or repeat property_ids[])",
      ],
      [
        Array.from(
          { length: MAX_BULK_DETAILS_IDS + 1 },
          (_, index) => `&property_ids[]=${100001 + index}`,
        ).join(""),
        `property_ids must contain at most ${MAX_BULK_DETAILS_IDS} ids`,
      ],
    ];
    for (const [query, message] of cases) {
      const response = await t.client.as(
        "demo-pro",
        "GET",
        `/v1/properties/bulk_details?account_id=${pro}${query}`,
      );
      expect({ query: query.slice(0, 40), status: response.status, body: response.body }).toMatchObject({
        status: 400,
        body: { message },
      });
    }
  });

  it(`accepts ${MAX_BULK_DETAILS_IDS} ids and rejects one more`, async () => {
    const ids = dataset.properties.slice(0, MAX_BULK_DETAILS_IDS + 1).map((p) => p.id);
    const ok = await t.client.as<{ data: Record[] }>(
      "demo-pro",
      "GET",
      `/v1/properties/bulk_details?account_id=${pro}&property_ids=${ids.slice(0, -1).join(",")}`,
    );
    expect(ok.body.data).toHaveLength(MAX_BULK_DETAILS_IDS);
    const tooMany = await t.client.as(
      "demo-pro",
      "GET",
      `/v1/properties/bulk_details?account_id=${pro}&property_ids=${ids.join(",")}`,
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({
      message: `property_ids must contain at most ${MAX_BULK_DETAILS_IDS} ids`,
    });
  });

  it("says `property_ids is required and must be a non-empty array` when missing or empty", async () => {
    for (const query of ["", "&property_ids="]) {
      const response = await t.client.as(
        "demo-pro",
        "GET",
        `/v1/properties/bulk_details?account_id=${pro}${query}`,
      );
      expect(response.status).toBe(400);
      // The vendor's 400 example puts the sentence in `error` (api-notes, second pass), not only in `message`.
      expect(response.body).toMatchObject({
        error: "property_ids is required and must be a non-empty array",
        message: "property_ids is required and must be a non-empty array",
      });
    }
  });
});

describe("POST /geo_boundaries/properties", () => {
  async function search(json: object, clientId = "demo-pro"): Promise<Page<Record>> {
    const response = await t.client.as<Page<Record>>(clientId, "POST", "/v1/geo_boundaries/properties", {
      json: { account_id: clientId === "demo-proplus" ? ACCOUNT.proPlus : pro, per_page: 500, ...json },
    });
    expect(response.status).toBe(200);
    return response.body;
  }

  const submarket = dataset.geography.boundaries.find(
    (b) => b.geoType === "BespokeSubmarket" && b.msaIndex === 20,
  );
  if (!submarket) throw new Error("no submarket");

  it("needs no geographic filter", async () => {
    const page = await search({ per_page: 10 });
    expect(page.pagination.total_count).toBe(dataset.properties.length);
  });

  it("restricts by geo_boundary_ids", async () => {
    const page = await search({ geo_boundary_ids: [submarket.id] });
    expect(page.data.map((r) => Number(r.id))).toEqual(
      idsWhere((p) => p.submarketId === submarket.id).slice(0, 500),
    );
    expect(page.pagination.total_count).toBe(dataset.propertiesByBoundary.get(submarket.id)?.length);
  });

  it("restricts by a GeoJSON polygon", async () => {
    const [west, south, east, north] = submarket.bbox;
    const midLng = (west + east) / 2;
    const triangle = {
      type: "Polygon",
      coordinates: [
        [
          [west, south],
          [east, south],
          [midLng, north],
          [west, south],
        ],
      ],
    };
    const page = await search({ geometry: triangle });
    const inside = (p: PropertyCore) => {
      if (p.latitude < south || p.latitude > north || p.longitude < west || p.longitude > east) return false;
      const height = ((p.latitude - south) / (north - south)) * ((east - west) / 2);
      return p.longitude >= west + height && p.longitude <= east - height;
    };
    const expected = idsWhere(inside);
    expect(expected.length).toBeGreaterThan(10);
    expect(page.data.map((r) => Number(r.id))).toEqual(expected);
  });

  it("filters by unified_status[], class, loan maturity and transactions", async () => {
    const page = await search({
      geo_boundary_ids: [submarket.id],
      "unified_status[]": ["lease_up", "under_construction"],
    });
    expect(page.data.map((r) => Number(r.id))).toEqual(
      idsWhere(
        (p) =>
          p.submarketId === submarket.id &&
          (p.unifiedStatus === "lease_up" || p.unifiedStatus === "under_construction"),
      ),
    );
    const sold = await search({
      transaction_cap_rate_gte: 0.07,
      property_class: ["A"],
      loan_maturity_date_lte: "2027-12-31",
    });
    expect(sold.data.map((r) => Number(r.id))).toEqual(
      idsWhere(
        (p) =>
          p.sale !== null &&
          p.sale.capRate >= 0.07 &&
          p.propertyClass === "A" &&
          p.loanMaturityDate !== null &&
          p.loanMaturityDate <= "2027-12-31",
      ),
    );
  });

  it("rejects construction_state[] as `Invalid filter parameter: construction_state[]`", async () => {
    const response = await t.client.as("demo-pro", "POST", "/v1/geo_boundaries/properties", {
      json: { account_id: pro, "construction_state[]": ["existing"] },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: "Invalid filter parameter: construction_state[]" });
  });

  it("rejects open rings and unknown boundary ids", async () => {
    const open = {
      type: "Polygon",
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
        ],
      ],
    };
    const response = await t.client.as("demo-pro", "POST", "/v1/geo_boundaries/properties", {
      json: { account_id: pro, geometry: open },
    });
    expect(response.status).toBe(400);
    const unknown = await t.client.as("demo-pro", "POST", "/v1/geo_boundaries/properties", {
      json: { account_id: pro, geo_boundary_ids: [1] },
    });
    expect(unknown.status).toBe(400);
  });

  it("carries every field of the property record", async () => {
    const page = await search({ geo_boundary_ids: [submarket.id], per_page: 1 }, "demo-proplus");
    const attributes = page.data[0]?.attributes ?? {};
    for (const field of [
      "collected_at",
      "msa_name",
      "property_url",
      "building_type",
      "units_per_acre",
      "ownership_company_4_ownership_type",
      "last_sale_price_status",
      "net_effective_rent_psf_4_bed",
      "days_on_market_0_bed",
    ]) {
      expect(attributes).toHaveProperty(field);
    }
  });
});
