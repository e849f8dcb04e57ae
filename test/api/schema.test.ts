import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { NUMBER_FIELD_SCHEMAS } from "../../scripts/generateNumberFields";
import { numericFields, schemaProperties } from "../../sandbox/contract/schemaFields";
import { NUMBER_FIELDS } from "../../src/api/readers/numberFields";
import { recordFields } from "../../scripts/generateRecordFields";
import { RECORD_FIELDS } from "../../src/api/recordFields";
import { fieldCatalogue, operationTiers } from "../../scripts/generateFieldCatalogue";
import { FIELD_CATALOGUE, OPERATION_TIERS } from "../../src/api/fieldCatalogue";
import {
  MAX_BULK_DETAILS_IDS,
  MAX_EXPLORE_MARKETS,
  MAX_FORECAST_AGGREGATIONS,
  MAX_JOB_PROPERTY_IDS,
  BULK_EXPORT_QUOTA_SEEN_LIVE,
  MAX_JOB_RANGE_DAYS,
  OBSERVED_JOB_DURATIONS,
} from "../../src/api/contractLimits";
import {
  MAX_BULK_DETAILS_IDS as SANDBOX_MAX_IDS,
  MAX_JOB_RANGE_DAYS as SANDBOX_MAX_JOB_RANGE_DAYS,
} from "../../sandbox/contract/limits";

const root = join(__dirname, "..", "..");

describe("the typed client's schema", () => {
  it("is what openapi-typescript generates from openapi.yaml today (run `npm run generate:api` if not)", () => {
    const cli = join(root, "node_modules", "openapi-typescript", "bin", "cli.js");
    // --check regenerates in memory and exits non-zero when the committed file differs.
    expect(() =>
      execFileSync(process.execPath, [cli, "src/api/openapi.yaml", "-o", "src/api/schema.d.ts", "--check"], {
        cwd: root,
        stdio: "pipe",
      }),
    ).not.toThrow();
  });
});

describe("the readers' number fields", () => {
  it("are the number fields of openapi.yaml today (run `npm run generate:api` if not)", () => {
    expect(NUMBER_FIELDS).toEqual(
      Object.fromEntries(NUMBER_FIELD_SCHEMAS.map((schema) => [schema, numericFields(schema)])),
    );
  });
});

describe("the record fields the Insert tab offers", () => {
  it("are the fields of openapi.yaml today (run `npm run generate:api` if not)", () => {
    expect(RECORD_FIELDS).toEqual(recordFields());
  });
});

describe("the field catalogue", () => {
  it("is the x-unit / x-sent-as / x-tier of openapi.yaml today (run `npm run generate:api` if not)", () => {
    expect(FIELD_CATALOGUE).toEqual(fieldCatalogue());
    expect(OPERATION_TIERS).toEqual(operationTiers());
  });

  it("gives every field of every record a unit, and every percent the scale the service writes it in", () => {
    // fieldCatalogue() throws on a field without x-unit; here: each record is there, with every schema field.
    const catalogue = fieldCatalogue();
    for (const [schema, record] of [
      ["PropertyAttributes", "property"],
      ["CompareMarketAttributes", "market"],
      ["UnitAttributes", "unit"],
    ] as const) {
      for (const field of Object.keys(schemaProperties(schema)))
        expect([field, catalogue[record]?.[field]?.unit]).toEqual([field, expect.any(String)]);
    }
    const percents = Object.values(catalogue).flatMap((fields) =>
      Object.entries(fields).filter(([, facts]) => facts.unit === "percent"),
    );
    expect(percents.length).toBeGreaterThan(40);
    for (const [field, facts] of percents) expect([field, facts.sentAs]).toEqual([field, expect.any(String)]);
    expect(catalogue.market?.concession_percent_avg_t30).toEqual({
      unit: "percent",
      sentAs: "fraction",
      tier: "pro",
    });
    expect(catalogue.survey?.distance?.unit).toBe("miles");
    expect(catalogue.unit?.last_rent_change).toEqual({ unit: "currency", sentAs: "text" });
    expect(catalogue.boundaryForecast?.occupancy).toEqual({ unit: "percent", sentAs: "points" });
    expect(catalogue.boundaryForecast?.deliveries).toEqual({ unit: "count", aggregate: "sum" });
  });
});

describe("contract limits the client batches by", () => {
  const contract = parse(readFileSync(join(root, "src", "api", "openapi.yaml"), "utf8"));

  it("match the contract and the sandbox", () => {
    expect(MAX_BULK_DETAILS_IDS).toBe(contract.paths["/properties/bulk_details"].get["x-max-ids"]);
    expect(MAX_BULK_DETAILS_IDS).toBe(SANDBOX_MAX_IDS);
    expect(BULK_EXPORT_QUOTA_SEEN_LIVE).toBe(
      contract.paths["/properties/bulk_details"].get["x-bulk-export-quota"].seen_live_limit,
    );
    const explore = contract.paths["/explore_markets"].post.requestBody.content["application/json"].schema;
    expect(MAX_EXPLORE_MARKETS).toBe(explore.properties.limit.maximum);
    expect(MAX_FORECAST_AGGREGATIONS).toBe(
      contract.components.schemas.PropertyForecastRequest.properties.aggregations.maxItems,
    );
    expect(MAX_FORECAST_AGGREGATIONS).toBe(
      contract.components.schemas.BoundaryForecastRequest.properties.aggregations.maxItems,
    );
    const createJob = contract.paths["/bulk_api/jobs"].post;
    expect(MAX_JOB_PROPERTY_IDS).toBe(
      contract.components.schemas.CreateBulkJobRequest.properties.property_ids.maxItems,
    );
    expect(MAX_JOB_RANGE_DAYS).toBe(createJob["x-max-range-days"]);
    expect(MAX_JOB_RANGE_DAYS).toBe(SANDBOX_MAX_JOB_RANGE_DAYS);
    expect(OBSERVED_JOB_DURATIONS).toEqual(createJob["x-expected-duration"].observed);
  });
});
