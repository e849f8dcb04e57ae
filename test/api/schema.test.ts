import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { tierValues, unitStyleValues } from "../../src/api/schema";
import { tierAtLeast } from "../../src/api/tiers";
import { NUMBER_FIELD_SCHEMAS } from "../../scripts/generateNumberFields";
import { numericFields, schemaProperties } from "../../sandbox/contract/schemaFields";
import { NUMBER_FIELDS } from "../../src/api/readers/numberFields";
import { recordFields } from "../../scripts/generateRecordFields";
import { RECORD_FIELDS } from "../../src/api/recordFields";
import { contractTiers, fieldCatalogue, operationTiers } from "../../scripts/generateFieldCatalogue";
import { FIELD_CATALOGUE, OPERATION_TIERS } from "../../src/api/fieldCatalogue";
import { contractLimitsSource } from "../../scripts/generateContractLimits";

const root = join(__dirname, "..", "..");

describe("the typed client's schema and the contract's enums", () => {
  it("are what `npm run generate:api` makes of openapi.yaml today (run it if not)", () => {
    // The openapi-typescript step of generate:api, with --check: regenerates in memory and exits non-zero when
    // the committed file differs (types, or the enum value lists --enum-values writes).
    const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts as Record<
      string,
      string
    >;
    const step = scripts["generate:api"]
      ?.split(" && ")
      .find((part) => part.startsWith("openapi-typescript "));
    const args = step?.split(" ").slice(1) ?? [];
    expect(args).toEqual(expect.arrayContaining(["--enum-values", "src/api/schema.ts"]));
    const cli = join(root, "node_modules", "openapi-typescript", "bin", "cli.js");
    expect(() =>
      execFileSync(process.execPath, [cli, ...args, "--check"], { cwd: root, stdio: "pipe" }),
    ).not.toThrow();
  });
});

describe("the unit styles filter", () => {
  it("accepts exactly the contract's UnitStyle values (its pattern cannot refer to the enum)", () => {
    const contract = parse(readFileSync(join(root, "src", "api", "openapi.yaml"), "utf8"));
    const units = contract.paths["/comp_sets/{comp_set_id}/units"].get.parameters as {
      name: string;
      schema: { pattern: string };
    }[];
    const pattern = units.find((parameter) => parameter.name === "filter[unit_styles]")?.schema.pattern;
    const styles = unitStyleValues.join("|");
    expect(pattern).toBe(`^(${styles})(,(${styles}))*$`);
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
      label: "Concession %, avg 30 d",
      sentAs: "fraction",
      tier: "pro",
    });
    expect(catalogue.survey?.distance?.unit).toBe("miles");
    expect(catalogue.unit?.last_rent_change).toEqual({
      unit: "currency",
      label: "Last rent change",
      sentAs: "text",
    });
    expect(catalogue.boundaryForecast?.occupancy).toEqual({
      unit: "percent",
      label: "Occupancy",
      sentAs: "points",
    });
    expect(catalogue.boundaryForecast?.deliveries).toEqual({
      unit: "count",
      label: "Deliveries",
      aggregate: "sum",
    });
  });
});

describe("contract limits the client batches by and the sandbox enforces", () => {
  it("are what scripts/generateContractLimits.ts makes of openapi.yaml today (run `npm run generate:api` if not)", () => {
    const file = join(root, "src", "api", "contractLimits.ts");
    // Formatted as `generate:api` formats it, by prettier's own command line.
    const generated = execFileSync(
      process.execPath,
      [join(root, "node_modules", "prettier", "bin", "prettier.cjs"), "--stdin-filepath", file],
      { cwd: root, input: contractLimitsSource(), encoding: "utf8" },
    );
    expect(readFileSync(file, "utf8")).toBe(generated);
  });
});

describe("the contract's tiers", () => {
  const contract = parse(readFileSync(join(root, "src", "api", "openapi.yaml"), "utf8")) as unknown;

  /** Every value of an `x-tier` or `x-required-tier` anywhere in the contract, with where it is. */
  function tierNames(node: unknown, at: string, into: [string, unknown][]): [string, unknown][] {
    if (node && typeof node === "object")
      for (const [key, value] of Object.entries(node)) {
        if (key === "x-tier" || key === "x-required-tier") into.push([`${at}/${key}`, value]);
        else tierNames(value, `${at}/${key}`, into);
      }
    return into;
  }

  it("is what every x-tier and x-required-tier names", () => {
    const named = tierNames(contract, "#", []);
    expect(named.length).toBeGreaterThan(50);
    for (const [at, value] of named) expect([at, tierValues]).toEqual([at, expect.arrayContaining([value])]);
    expect(contractTiers()).toEqual([...tierValues]);
  });

  it("ranks tiers in the order the contract lists them, lowest first", () => {
    tierValues.forEach((actual, i) =>
      tierValues.forEach((required, j) =>
        expect([actual, required, tierAtLeast(actual, required)]).toEqual([actual, required, i >= j]),
      ),
    );
  });
});
