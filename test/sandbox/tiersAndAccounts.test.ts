import { ACCOUNT, startTestSandbox, type TestSandbox } from "./support/fixtures";

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox();
});

afterAll(async () => {
  await t.sandbox.close();
});

const OWNERSHIP_FIELDS = [
  "ownership_company_1_name",
  "ownership_company_1_ownership_type",
  "ownership_company_4_name",
  "owned_since_date",
  "last_sale_price",
  "last_sale_price_status",
];

describe("tiers", () => {
  it("gives the base tier 403 on pro endpoints and 200 on base endpoints", async () => {
    const pro = [
      ["GET", `/v1/properties/lookup?account_id=${ACCOUNT.base}`],
      ["GET", `/v1/properties/bulk_details?account_id=${ACCOUNT.base}&property_ids=100001`],
    ] as const;
    for (const [method, path] of pro) {
      const response = await t.client.as("demo-base", method, path);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({
        error: "Forbidden",
        message: "This endpoint requires the pro tier",
      });
    }
    const forecast = await t.client.as("demo-base", "POST", "/v1/properties/100001/forecasts", {
      json: {
        account_id: ACCOUNT.base,
        aggregations: [{ name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" }],
      },
    });
    expect(forecast.status).toBe(403);
    const narrative = await t.client.as(
      "demo-base",
      "GET",
      `/v1/markets/narratives?account_id=${ACCOUNT.base}&geo_boundary_id=1000`,
    );
    expect(narrative.status).toBe(200);
  });

  it("says the base tier has no permission to create batch jobs", async () => {
    const response = await t.client.as("demo-base", "POST", "/v1/bulk_api/jobs", {
      json: {
        report_type: "property",
        output_format: "csv",
        property_ids: [100001],
        start_date: "2026-03-01",
        end_date: "2026-03-01",
      },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      error: "Forbidden",
      message: "No permission to create batch jobs (the pro tier is required)",
    });
  });

  it("returns ownership and sale fields only to pro-plus", async () => {
    const fetchAttributes = async (clientId: string, account: number) => {
      const response = await t.client.as<{ data: { attributes: Record<string, unknown> }[] }>(
        clientId,
        "GET",
        `/v1/properties/bulk_details?account_id=${account}&property_ids=100001`,
      );
      return response.body.data[0]?.attributes ?? {};
    };
    const pro = await fetchAttributes("demo-pro", ACCOUNT.pro);
    const proPlus = await fetchAttributes("demo-proplus", ACCOUNT.proPlus);
    for (const field of OWNERSHIP_FIELDS) {
      expect(pro).not.toHaveProperty(field);
      expect(proPlus).toHaveProperty(field);
    }
    expect(pro.asking_rent).toBe(proPlus.asking_rent);
  });
});

describe("accounts", () => {
  it("lets a client act only for its own accounts (the shared one included)", async () => {
    const path = (account: number) => `/v1/properties/lookup?account_id=${account}&per_page=1`;
    expect((await t.client.as("demo-pro", "GET", path(ACCOUNT.pro))).status).toBe(200);
    expect((await t.client.as("demo-pro", "GET", path(ACCOUNT.shared))).status).toBe(200);
    const other = await t.client.as("demo-pro", "GET", path(ACCOUNT.proPlus));
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({
      error: "Forbidden",
      message: `You do not have access to account ${ACCOUNT.proPlus}`,
    });
    const listed = await t.client.as("demo-pro", "GET", `/v1/accounts/${ACCOUNT.base}/comp_sets`);
    expect(listed.status).toBe(403);
  });

  it("says `account_id is required` wherever it is missing", async () => {
    const cases = [
      ["GET", "/v1/properties/bulk_details?property_ids=100001", undefined],
      ["GET", "/v1/markets/narratives?geo_boundary_id=1000", undefined],
      ["POST", "/v1/explore_markets", {}],
      ["POST", "/v1/geo_boundaries/search", { query: "Dallas" }],
      ["POST", "/v1/geo_boundaries/properties", {}],
      [
        "POST",
        "/v1/properties/100001/forecasts",
        { aggregations: [{ name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" }] },
      ],
    ] as const;
    for (const [method, path, json] of cases) {
      const response = await t.client.as("demo-pro", method, path, { json });
      expect({ path, status: response.status, body: response.body }).toMatchObject({
        path,
        status: 400,
        body: { message: "account_id is required" },
      });
    }
  });

  it("hides one client's jobs from another: 403 on access, absent from the list", async () => {
    const created = await t.client.as<{ job_id: string }>("demo-pro", "POST", "/v1/bulk_api/jobs", {
      json: {
        report_type: "property",
        output_format: "csv",
        property_ids: [100001],
        start_date: "2026-03-01",
        end_date: "2026-03-01",
      },
    });
    const jobId = created.body.job_id;
    const other = await t.client.as("demo-proplus", "GET", `/v1/bulk_api/jobs/${jobId}`);
    expect(other.status).toBe(403);
    const list = await t.client.as<{ jobs: { job_id: string }[] }>(
      "demo-proplus",
      "GET",
      "/v1/bulk_api/jobs",
    );
    expect(list.body.jobs.map((job) => job.job_id)).not.toContain(jobId);
  });
});
