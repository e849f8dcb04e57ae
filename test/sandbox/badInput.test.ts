import fc from "fast-check";
import { ACCOUNT, startTestSandbox, type TestSandbox } from "./support/fixtures";

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox();
});

afterAll(async () => {
  await t.sandbox.close();
});

const POST_ENDPOINTS = [
  "/v1/geo_boundaries/search",
  "/v1/geo_boundaries/properties",
  "/v1/explore_markets",
  "/v1/properties/100001/forecasts",
  "/v1/geo_boundary/1000/forecasts",
  "/v1/bulk_api/jobs",
];

async function stillServing(): Promise<void> {
  expect((await t.client.as("demo-proplus", "GET", "/v1/accounts")).status).toBe(200);
}

describe("bad input never crashes the sandbox", () => {
  it.each(POST_ENDPOINTS)("answers malformed JSON at %s with 400 and a message", async (path) => {
    const response = await t.client.as("demo-proplus", "POST", path, { rawBody: '{"account_id": 103,' });
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message).toMatch(/JSON/);
  });

  it("answers wrong types with 400 naming the field", async () => {
    const response = await t.client.as("demo-proplus", "POST", "/v1/explore_markets", {
      json: { account_id: "103" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: "account_id must be an integer" });
    const nested = await t.client.as("demo-proplus", "POST", "/v1/properties/100001/forecasts", {
      json: {
        account_id: ACCOUNT.proPlus,
        aggregations: [{ name: "g", field: "rent_growth_rate_yoy", aggregation_type: 5 }],
      },
    });
    expect(nested.status).toBe(400);
    expect(nested.body).toMatchObject({ message: "aggregations[0][aggregation_type] must be a string" });
  });

  it("answers unknown fields with 400 naming them", async () => {
    const body = await t.client.as("demo-proplus", "POST", "/v1/geo_boundaries/search", {
      json: { account_id: ACCOUNT.proPlus, colour: "blue" },
    });
    expect(body.status).toBe(400);
    expect(body.body).toMatchObject({ message: "Unknown parameter: colour" });
    const query = await t.client.as("demo-proplus", "GET", "/v1/accounts?colour=blue");
    expect(query.status).toBe(400);
    expect(query.body).toMatchObject({ message: "Unknown query parameter: colour" });
  });

  it("answers huge arrays with 400 naming the limit", async () => {
    const ids = Array.from({ length: 100_000 }, (_, index) => 100_001 + index);
    const job = await t.client.as("demo-proplus", "POST", "/v1/bulk_api/jobs", {
      json: {
        report_type: "property",
        output_format: "csv",
        property_ids: ids,
        start_date: "2026-03-01",
        end_date: "2026-03-02",
      },
    });
    expect(job.status).toBe(400);
    expect(job.body).toMatchObject({ message: "property_ids must contain at most 1000 items" });
    const search = await t.client.as("demo-proplus", "POST", "/v1/geo_boundaries/properties", {
      json: { account_id: ACCOUNT.proPlus, geo_boundary_ids: ids },
    });
    expect(search.status).toBe(400);
    await stillServing();
  });

  it("answers bodies nested thousands of levels deep with 400, on every JSON endpoint and the token endpoint", async () => {
    const deepArrays = `${"[".repeat(5_000)}${"]".repeat(5_000)}`;
    const deepObjects = `{"account_id":${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}}`;
    for (const path of [...POST_ENDPOINTS, "/oauth/token"]) {
      for (const rawBody of [deepArrays, deepObjects]) {
        const response = await t.client.as("demo-proplus", "POST", path, { rawBody });
        expect({ path, status: response.status }).toEqual({ path, status: 400 });
        expect((response.body as { message: string }).message).toMatch(/nested more than 64 levels deep/);
      }
    }
    await stillServing();
  });

  it("answers a body over the size limit with 413 and a message", async () => {
    const response = await t.client.as("demo-proplus", "POST", "/v1/explore_markets", {
      rawBody: JSON.stringify({ padding: "x".repeat(6 * 1024 * 1024) }),
      outsideContract: true,
    });
    expect(response.status).toBe(413);
    await stillServing();
  });

  it("answers a missing body and a wrong content type", async () => {
    const missing = await t.client.as("demo-proplus", "POST", "/v1/explore_markets");
    expect(missing.status).toBe(400);
    const wrongType = await t.client.as("demo-proplus", "POST", "/v1/explore_markets", {
      rawBody: "account_id=103",
      contentType: "text/plain",
      outsideContract: true,
    });
    expect(wrongType.status).toBe(415);
  });

  it("answers arbitrary JSON bodies with a 2xx or a 4xx, never a 5xx", async () => {
    const token = await t.client.token("demo-proplus");
    const anyJson = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc
        .record(
          { account_id: fc.oneof(fc.constant(ACCOUNT.proPlus), fc.jsonValue({ maxDepth: 1 })) },
          { requiredKeys: [] },
        )
        .chain((base) =>
          fc
            .dictionary(
              fc.constantFrom(
                "query",
                "geo_type",
                "limit",
                "aggregations",
                "interval",
                "filters",
                "property_ids",
                "start_date",
                "end_date",
                "market_filters",
                "sort",
                "geometry",
                "unified_status[]",
              ),
              fc.jsonValue({ maxDepth: 2 }),
              { maxKeys: 4 },
            )
            .map((extra) => ({ ...base, ...extra })),
        ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POST_ENDPOINTS), anyJson, async (path, body) => {
        const response = await t.client.request("POST", path, { token, json: body });
        return response.status < 500;
      }),
      { numRuns: 300, seed: 42 },
    );
    t.sandbox.context.rateLimiter.reset();
    await stillServing();
  });

  it("answers arbitrary query strings with a 2xx or a 4xx, never a 5xx", async () => {
    const token = await t.client.token("demo-proplus");
    const paths = [
      "/v1/properties/lookup",
      "/v1/properties/bulk_details",
      "/v1/comp_sets/10301/units",
      "/v1/comp_sets/10301/floor_plans",
      "/v1/markets/narratives",
      "/v1/bulk_api/jobs",
    ];
    const names = [
      "account_id",
      "property_ids",
      "property_ids[]",
      "latitude",
      "lng",
      "radius",
      "page",
      "per_page",
      "filter[bedroom_count]",
      "filter[collected_at_gte]",
      "geo_boundary_id",
      "state",
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.array(fc.tuple(fc.constantFrom(...names), fc.string({ maxLength: 12 })), { maxLength: 5 }),
        async (path, pairs) => {
          const query = new URLSearchParams(pairs).toString();
          const response = await t.client.request("GET", `${path}?${query}`, { token });
          return response.status < 500;
        },
      ),
      { numRuns: 300, seed: 7 },
    );
    t.sandbox.context.rateLimiter.reset();
    await stillServing();
  });
});
