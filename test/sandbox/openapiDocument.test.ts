import path from "node:path";
import { lint, loadConfig } from "@redocly/openapi-core";
import { contract, contractOperationList } from "./support/contractValidator";
import { loadOpenApiDocument, madeFromContract } from "../../sandbox/contract/openapiDocument";

const CONTRACT_PATH = path.resolve(__dirname, "../../src/api/openapi.yaml");

describe("src/api/openapi.yaml", () => {
  it("is a valid OpenAPI 3.1 document (no lint errors under the recommended rules)", async () => {
    const problems = await lint({ ref: CONTRACT_PATH, config: await loadConfig({}) });
    const errors = problems
      .filter((problem) => problem.severity === "error")
      .map((problem) => `${problem.ruleId}: ${problem.message}`);
    expect(contract.openapi).toBe("3.1.0");
    expect(errors).toEqual([]);
  });

  it("covers every path of the spec", () => {
    const operations = contractOperationList().map((operation) => `${operation.method} ${operation.path}`);
    expect(operations.sort()).toEqual(
      [
        "POST /oauth/token",
        "GET /accounts",
        "GET /accounts/{account_id}/comp_sets",
        "GET /comp_sets/{comp_set_id}/market_survey",
        "GET /comp_sets/{comp_set_id}/units",
        "GET /comp_sets/{comp_set_id}/floor_plans",
        "POST /geo_boundaries/search",
        "POST /geo_boundaries/properties",
        "GET /properties/lookup",
        "GET /properties/bulk_details",
        "POST /explore_markets",
        "GET /markets/narratives",
        "POST /properties/{property_id}/forecasts",
        "POST /geo_boundary/{geo_boundary_id}/forecasts",
        "POST /bulk_api/jobs",
        "GET /bulk_api/jobs",
        "GET /bulk_api/jobs/{job_id}",
        "DELETE /bulk_api/jobs/{job_id}",
        "GET /bulk_api/jobs/{job_id}/results",
      ].sort(),
    );
  });

  it("writes every decision down with a description that says so", () => {
    const text = JSON.stringify(contract);
    expect((text.match(/Decision/g) ?? []).length).toBeGreaterThan(40);
  });
});

describe("what the sandbox makes from the contract", () => {
  it("is made once per version of the file and name, and kept beside the parse", () => {
    let made = 0;
    const make = () => ({ made: ++made, document: loadOpenApiDocument() });
    const first = madeFromContract("a test's thing", make);
    expect(madeFromContract("a test's thing", make)).toBe(first);
    expect(made).toBe(1);
    expect(first.document).toBe(loadOpenApiDocument());
    expect(madeFromContract("another test's thing", make)).toEqual({ made: 2, document: first.document });
  });
});
