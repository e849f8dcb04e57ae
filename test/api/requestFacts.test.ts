import { bodyDefaults, bodyRange, parameterDefault, parameterMaximum } from "../../src/api/requestFacts";
import { FORECAST_WINDOW_MONTHS } from "../../src/api/contractLimits";
import { parsedContract } from "../support/parsedContract";

/** The contract as parsed from its YAML, not through the generators, so a stale or wrong generated row shows. */
const contract = parsedContract();
const schemas = contract.components.schemas;

const defaultsOf = (properties: Record<string, { default?: unknown }>) =>
  Object.fromEntries(
    Object.entries(properties).flatMap(([name, schema]) =>
      schema.default === undefined ? [] : [[name, schema.default]],
    ),
  );

describe("what a request left to the service's defaults means", () => {
  it("is the contract's default of each forecast request member (the add-in fills in the same)", () => {
    expect(bodyDefaults("getPropertyForecasts")).toEqual(
      defaultsOf(schemas.PropertyForecastRequest.properties),
    );
    expect(bodyDefaults("getGeoBoundaryForecasts")).toEqual(
      defaultsOf(schemas.BoundaryForecastRequest.properties),
    );
    expect(Object.keys(bodyDefaults("getPropertyForecasts"))).toEqual(
      expect.arrayContaining(["interval", "offset", "use_rent_value", "use_submarket_fallback"]),
    );
  });

  it("is the contract's default and range of explore markets' members and the accounts list's paging", () => {
    const explore =
      contract.paths["/explore_markets"].post.requestBody.content["application/json"].schema.properties;
    expect(bodyDefaults("exploreMarkets")).toEqual(defaultsOf(explore));
    expect(bodyRange("exploreMarkets", "limit")).toEqual({
      minimum: explore.limit.minimum,
      maximum: explore.limit.maximum,
    });
    const accounts = contract.paths["/accounts"].get.parameters as {
      name?: string;
      schema?: { default?: unknown };
    }[];
    const perPage = accounts.find((parameter) => parameter.name === "per_page");
    expect(parameterDefault("listAccounts", "per_page")).toBe(perPage?.schema?.default);
    expect(parameterDefault("listAccounts", "page")).toBe(contract.components.parameters.Page.schema.default);
  });

  it("is the contract's largest page of the jobs list (what the relay pages the service by)", () => {
    const jobs = contract.paths["/bulk_api/jobs"].get.parameters as {
      name?: string;
      schema?: { maximum?: number };
    }[];
    const perPage = jobs.find((parameter) => parameter.name === "per_page")?.schema?.maximum;
    expect(perPage).toEqual(expect.any(Number));
    expect(parameterMaximum("listBulkJobs", "per_page")).toBe(perPage);
  });

  it("refuses to make up a default or range the contract does not give", () => {
    expect(() => parameterDefault("listAccounts", "account_id")).toThrow(/no default for account_id/);
    expect(() => bodyRange("exploreMarkets", "sort")).toThrow(/no minimum and maximum/);
    expect(() => parameterMaximum("listBulkJobs", "page")).toThrow(/no maximum/);
  });

  it("keeps the forecast window the contract's", () => {
    expect(FORECAST_WINDOW_MONTHS).toBe(schemas.ForecastFilters["x-window-months"]);
  });
});
