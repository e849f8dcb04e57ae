import { compSetsOf } from "../../sandbox/data/compSets";
import { SANDBOX_VARIANTS } from "../../sandbox/variant";
import { contractOperationList, contractProblems } from "./support/contractValidator";
import { ACCOUNT, startTestSandbox, type TestSandbox } from "./support/fixtures";
import type { JsonResponse } from "./support/sandboxClient";

/**
 * Every endpoint answers with the statuses the contract names, and every answer conforms to the
 * contract's schema for that status. The last test checks that each named status was seen. The whole suite
 * runs against each answer variant of the sandbox.
 */
describe.each(SANDBOX_VARIANTS)("the %s variant", (variant) => {
  let t: TestSandbox;
  const seen = new Map<string, Set<string>>();

  beforeAll(async () => {
    t = await startTestSandbox({ variant });
  });

  afterAll(async () => {
    await t.sandbox.close();
  });

  function record(operationId: string, response: JsonResponse, expected: number): void {
    expect({ operationId, status: response.status, body: response.text.slice(0, 300) }).toMatchObject({
      status: expected,
    });
    expect(contractProblems(operationId, response)).toEqual([]);
    const statuses = seen.get(operationId) ?? new Set<string>();
    statuses.add(String(response.status));
    seen.set(operationId, statuses);
  }

  interface Call {
    method: string;
    path: string;
    json?: unknown;
  }

  const aggregations = [{ name: "growth", field: "rent_growth_rate_yoy", aggregation_type: "avg" }];
  const boundaryAggregations = [{ name: "growth", field: "rent_growth_yoy", aggregation_type: "avg" }];

  /** A valid request per operation (as pro-plus, which may call everything). */
  function validCalls(ids: { compSet: number; jobId: string }): Record<string, Call> {
    return {
      listAccounts: { method: "GET", path: "/v1/accounts" },
      listCompSets: { method: "GET", path: `/v1/accounts/${ACCOUNT.proPlus}/comp_sets` },
      getMarketSurvey: { method: "GET", path: `/v1/comp_sets/${ids.compSet}/market_survey` },
      listCompSetUnits: { method: "GET", path: `/v1/comp_sets/${ids.compSet}/units` },
      listCompSetFloorPlans: { method: "GET", path: `/v1/comp_sets/${ids.compSet}/floor_plans` },
      searchGeoBoundaries: {
        method: "POST",
        path: "/v1/geo_boundaries/search",
        json: { account_id: ACCOUNT.proPlus, limit: 50 },
      },
      searchProperties: {
        method: "POST",
        path: "/v1/geo_boundaries/properties",
        json: { account_id: ACCOUNT.proPlus, per_page: 20 },
      },
      lookupProperties: {
        method: "GET",
        path: `/v1/properties/lookup?account_id=${ACCOUNT.proPlus}&per_page=5`,
      },
      getBulkPropertyDetails: {
        method: "GET",
        path: `/v1/properties/bulk_details?account_id=${ACCOUNT.proPlus}&property_ids=100001,100002,100003`,
      },
      exploreMarkets: { method: "POST", path: "/v1/explore_markets", json: { account_id: ACCOUNT.proPlus } },
      getMarketNarratives: {
        method: "GET",
        path: `/v1/markets/narratives?account_id=${ACCOUNT.proPlus}&geo_boundary_id=1000`,
      },
      getPropertyForecasts: {
        method: "POST",
        path: "/v1/properties/100001/forecasts",
        json: { account_id: ACCOUNT.proPlus, aggregations },
      },
      getGeoBoundaryForecasts: {
        method: "POST",
        path: "/v1/geo_boundary/1000/forecasts",
        json: { account_id: ACCOUNT.proPlus, aggregations: boundaryAggregations },
      },
      createBulkJob: {
        method: "POST",
        path: "/v1/bulk_api/jobs",
        json: {
          report_type: "property",
          output_format: "csv",
          property_ids: [100001],
          start_date: "2026-03-01",
          end_date: "2026-03-02",
        },
      },
      listBulkJobs: { method: "GET", path: "/v1/bulk_api/jobs" },
      getBulkJob: { method: "GET", path: `/v1/bulk_api/jobs/${ids.jobId}` },
      cancelBulkJob: { method: "DELETE", path: `/v1/bulk_api/jobs/${ids.jobId}` },
      getBulkJobResults: { method: "GET", path: `/v1/bulk_api/jobs/${ids.jobId}/results` },
    };
  }

  async function newJob(clientId = "demo-proplus"): Promise<string> {
    const response = await t.client.as<{ job_id: string }>(clientId, "POST", "/v1/bulk_api/jobs", {
      json: {
        property_ids: [100001, 100002],
        start_date: "2026-03-01",
        end_date: "2026-03-03",
        report_type: "property",
        output_format: "jsonl",
      },
    });
    record("createBulkJob", response, 201);
    return response.body.job_id;
  }

  describe("every operation", () => {
    let calls: Record<string, Call>;

    beforeAll(async () => {
      const compSet = compSetsOf(t.sandbox.context.dataset()).find(
        (set) => set.accountId === ACCOUNT.proPlus,
      );
      if (!compSet) throw new Error("pro-plus account has no comp set");
      calls = validCalls({ compSet: compSet.id, jobId: await newJob() });
    });

    it("answers a valid request with its success status and a conforming body", async () => {
      for (const [operationId, call] of Object.entries(calls)) {
        if (operationId === "cancelBulkJob" || operationId === "getBulkJobResults") continue;
        const response = await t.client.as("demo-proplus", call.method, call.path, { json: call.json });
        record(operationId, response, operationId === "createBulkJob" ? 201 : 200);
      }
    });

    it("answers 401 without a token", async () => {
      for (const [operationId, call] of Object.entries(calls)) {
        record(operationId, await t.client.request(call.method, call.path, { json: call.json }), 401);
      }
    });

    it("answers a plain-text 429 with the rate-limit headers during a 429 burst", async () => {
      for (const [operationId, call] of Object.entries(calls)) {
        t.sandbox.context.faults.update({ rateLimitBurst: 1 });
        const response = await t.client.as("demo-proplus", call.method, call.path, { json: call.json });
        record(operationId, response, 429);
      }
    });

    it("answers a plain-text 500 when the server fails", async () => {
      t.sandbox.context.faults.update({ errorRate: 1 });
      try {
        for (const [operationId, call] of Object.entries(calls)) {
          record(
            operationId,
            await t.client.as("demo-proplus", call.method, call.path, { json: call.json }),
            500,
          );
        }
      } finally {
        t.sandbox.context.faults.reset();
      }
    });
  });

  describe("client errors", () => {
    const cases: [string, string, Call][] = [
      ["listAccounts", "demo-pro", { method: "GET", path: "/v1/accounts?per_page=0" }],
      ["listCompSets", "demo-pro", { method: "GET", path: "/v1/accounts/abc/comp_sets" }],
      ["getMarketSurvey", "demo-pro", { method: "GET", path: "/v1/comp_sets/x/market_survey" }],
      [
        "listCompSetUnits",
        "demo-pro",
        { method: "GET", path: "/v1/comp_sets/10201/units?filter[bedroom_count]=one" },
      ],
      [
        "listCompSetFloorPlans",
        "demo-pro",
        { method: "GET", path: "/v1/comp_sets/10201/floor_plans?filter[collected_at_gte]=yesterday" },
      ],
      [
        "searchGeoBoundaries",
        "demo-pro",
        { method: "POST", path: "/v1/geo_boundaries/search", json: { account_id: 102, geo_type: "Planet" } },
      ],
      [
        "searchProperties",
        "demo-pro",
        {
          method: "POST",
          path: "/v1/geo_boundaries/properties",
          json: { account_id: 102, "construction_state[]": ["x"] },
        },
      ],
      ["lookupProperties", "demo-pro", { method: "GET", path: "/v1/properties/lookup" }],
      [
        "getBulkPropertyDetails",
        "demo-pro",
        { method: "GET", path: "/v1/properties/bulk_details?account_id=102" },
      ],
      [
        "exploreMarkets",
        "demo-pro",
        {
          method: "POST",
          path: "/v1/explore_markets",
          json: { account_id: 102, market_filters: { color: "red" } },
        },
      ],
      ["getMarketNarratives", "demo-pro", { method: "GET", path: "/v1/markets/narratives?account_id=102" }],
      [
        "getPropertyForecasts",
        "demo-pro",
        {
          method: "POST",
          path: "/v1/properties/100001/forecasts",
          json: { account_id: 102, aggregations: [] },
        },
      ],
      [
        "getGeoBoundaryForecasts",
        "demo-pro",
        {
          method: "POST",
          path: "/v1/geo_boundary/1000/forecasts",
          json: { account_id: 102, aggregations: [], interval: "day" },
        },
      ],
      [
        "createBulkJob",
        "demo-pro",
        {
          method: "POST",
          path: "/v1/bulk_api/jobs",
          json: {
            report_type: "property",
            output_format: "csv",
            property_ids: [100001],
            start_date: "03/01/2026",
            end_date: "2026-03-02",
          },
        },
      ],
      ["listBulkJobs", "demo-pro", { method: "GET", path: "/v1/bulk_api/jobs?per_page=1000" }],
      ["getBulkJob", "demo-pro", { method: "GET", path: "/v1/bulk_api/jobs/not-a-uuid" }],
      ["cancelBulkJob", "demo-pro", { method: "DELETE", path: "/v1/bulk_api/jobs/not-a-uuid" }],
      ["getBulkJobResults", "demo-pro", { method: "GET", path: "/v1/bulk_api/jobs/not-a-uuid/results" }],
    ];

    it.each(cases)("%s answers 400 with an error payload", async (operationId, clientId, call) => {
      const response = await t.client.as(clientId, call.method, call.path, { json: call.json });
      record(operationId, response, 400);
      expect((response.body as { message: string }).message.length).toBeGreaterThan(5);
    });

    it("answers 400 invalid_request and 401 invalid_client at the token endpoint", async () => {
      record(
        "createToken",
        await t.client.request("POST", "/oauth/token", { json: { grant_type: "client_credentials" } }),
        400,
      );
      record(
        "createToken",
        await t.client.request("POST", "/oauth/token", {
          json: { grant_type: "client_credentials", client_id: "demo-pro", client_secret: "wrong" },
        }),
        401,
      );
      record(
        "createToken",
        await t.client.request("POST", "/oauth/token", {
          json: {
            grant_type: "client_credentials",
            client_id: "demo-pro",
            client_secret: "sandbox-secret-pro",
          },
        }),
        200,
      );
    });

    const forbidden: [string, string, Call][] = [
      ["listCompSets", "demo-pro", { method: "GET", path: `/v1/accounts/${ACCOUNT.proPlus}/comp_sets` }],
      ["getMarketSurvey", "demo-pro", { method: "GET", path: "/v1/comp_sets/10301/market_survey" }],
      ["listCompSetUnits", "demo-pro", { method: "GET", path: "/v1/comp_sets/10301/units" }],
      ["listCompSetFloorPlans", "demo-pro", { method: "GET", path: "/v1/comp_sets/10301/floor_plans" }],
      [
        "searchGeoBoundaries",
        "demo-pro",
        { method: "POST", path: "/v1/geo_boundaries/search", json: { account_id: ACCOUNT.base } },
      ],
      [
        "searchProperties",
        "demo-base",
        { method: "POST", path: "/v1/geo_boundaries/properties", json: { account_id: ACCOUNT.base } },
      ],
      [
        "lookupProperties",
        "demo-base",
        { method: "GET", path: `/v1/properties/lookup?account_id=${ACCOUNT.base}` },
      ],
      [
        "getBulkPropertyDetails",
        "demo-base",
        { method: "GET", path: `/v1/properties/bulk_details?account_id=${ACCOUNT.base}&property_ids=100001` },
      ],
      [
        "exploreMarkets",
        "demo-base",
        { method: "POST", path: "/v1/explore_markets", json: { account_id: ACCOUNT.pro } },
      ],
      [
        "getMarketNarratives",
        "demo-base",
        { method: "GET", path: `/v1/markets/narratives?account_id=${ACCOUNT.proPlus}&geo_boundary_id=1000` },
      ],
      [
        "getPropertyForecasts",
        "demo-base",
        { method: "POST", path: "/v1/properties/100001/forecasts", json: { account_id: 101, aggregations } },
      ],
      [
        "getGeoBoundaryForecasts",
        "demo-base",
        {
          method: "POST",
          path: "/v1/geo_boundary/1000/forecasts",
          json: { account_id: 101, aggregations: boundaryAggregations },
        },
      ],
      [
        "createBulkJob",
        "demo-base",
        {
          method: "POST",
          path: "/v1/bulk_api/jobs",
          json: {
            report_type: "property",
            output_format: "csv",
            property_ids: [100001],
            start_date: "2026-03-01",
            end_date: "2026-03-02",
          },
        },
      ],
      ["listBulkJobs", "demo-base", { method: "GET", path: "/v1/bulk_api/jobs" }],
    ];

    it.each(forbidden)("%s answers 403 to %s", async (operationId, clientId, call) => {
      record(operationId, await t.client.as(clientId, call.method, call.path, { json: call.json }), 403);
    });

    const missing: [string, Call][] = [
      ["getMarketSurvey", { method: "GET", path: "/v1/comp_sets/999999/market_survey" }],
      ["listCompSetUnits", { method: "GET", path: "/v1/comp_sets/999999/units" }],
      ["listCompSetFloorPlans", { method: "GET", path: "/v1/comp_sets/999999/floor_plans" }],
      [
        "getMarketNarratives",
        { method: "GET", path: `/v1/markets/narratives?account_id=${ACCOUNT.proPlus}&geo_boundary_id=1` },
      ],
      [
        "getPropertyForecasts",
        {
          method: "POST",
          path: "/v1/properties/99/forecasts",
          json: { account_id: ACCOUNT.proPlus, aggregations },
        },
      ],
      [
        "getGeoBoundaryForecasts",
        {
          method: "POST",
          path: "/v1/geo_boundary/1/forecasts",
          json: { account_id: ACCOUNT.proPlus, aggregations: boundaryAggregations },
        },
      ],
      ["getBulkJob", { method: "GET", path: "/v1/bulk_api/jobs/00000000-0000-4000-8000-000000000000" }],
      ["cancelBulkJob", { method: "DELETE", path: "/v1/bulk_api/jobs/00000000-0000-4000-8000-000000000000" }],
      [
        "getBulkJobResults",
        { method: "GET", path: "/v1/bulk_api/jobs/00000000-0000-4000-8000-000000000000/results" },
      ],
    ];

    it.each(missing)("%s answers 404 Not Found for an unknown id", async (operationId, call) => {
      const response = await t.client.as("demo-proplus", call.method, call.path, { json: call.json });
      record(operationId, response, 404);
      expect(response.body).toMatchObject({ error: "Not Found" });
    });
  });

  describe("job lifecycle statuses", () => {
    it("answers 403 for another client's job, 409 before success, 302 after, and 409 when cancelling a finished job", async () => {
      const jobId = await newJob();
      for (const [operationId, method, suffix] of [
        ["getBulkJob", "GET", ""],
        ["cancelBulkJob", "DELETE", ""],
        ["getBulkJobResults", "GET", "/results"],
      ] as const) {
        record(
          operationId,
          await t.client.as("demo-pro", method, `/v1/bulk_api/jobs/${jobId}${suffix}`),
          403,
        );
      }
      record(
        "getBulkJobResults",
        await t.client.as("demo-proplus", "GET", `/v1/bulk_api/jobs/${jobId}/results`),
        409,
      );
      await t.sandbox.context.worker.flush();
      const results = await t.client.as("demo-proplus", "GET", `/v1/bulk_api/jobs/${jobId}/results`);
      record("getBulkJobResults", results, 302);
      record("cancelBulkJob", await t.client.as("demo-proplus", "DELETE", `/v1/bulk_api/jobs/${jobId}`), 409);
      const pending = await newJob();
      record(
        "cancelBulkJob",
        await t.client.as("demo-proplus", "DELETE", `/v1/bulk_api/jobs/${pending}`),
        200,
      );
    });

    it("answers the bulk export quota with a JSON 429", async () => {
      t.sandbox.context.quota.configure(1);
      try {
        const response = await t.client.as(
          "demo-proplus",
          "GET",
          `/v1/properties/bulk_details?account_id=${ACCOUNT.shared}&property_ids=100001,100002`,
        );
        record("getBulkPropertyDetails", response, 429);
        expect(response.headers.get("content-type")).toMatch(/json/);
      } finally {
        t.sandbox.context.quota.configure(t.sandbox.context.options.bulkExportQuota);
      }
    });
  });

  describe("coverage", () => {
    it("has seen every status the contract names for every operation", () => {
      const missingStatuses = contractOperationList().flatMap((operation) =>
        operation.statuses
          .filter((status) => !seen.get(operation.operationId)?.has(status))
          .map((status) => `${operation.operationId} ${status}`),
      );
      expect(missingStatuses).toEqual([]);
    });
  });
});
