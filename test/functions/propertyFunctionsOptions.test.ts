/**
 * RENT.LOOKUP's and RENT.PROPERTIES' name/value options are their requests' members as the contract has them
 * (src/api/contractOperations.ts), less the add-in's own, each read by its contract type: what a function offers
 * is seen in its "Unknown option" error, which lists the allowed names; an option's reading in the #VALUE! a bad
 * value gets. Both come before any request, so these tests need no service.
 */
import {
  CONTRACT_OPERATIONS,
  type ContractOperation,
  type ContractParameter,
} from "../../src/api/contractOperations";
import { RECORD_FIELDS } from "../../src/api/recordFields";
import { optionMembers } from "../../src/functions/args/contractOptions";
import { fakeInvocation } from "../support/invocation";

type PropertyFunctions = typeof import("../../src/functions/propertyFunctions");

/** What the add-in fills itself, or takes from another argument, in each request: not options. */
const LOOKUP_OWN = ["account_id", "page", "per_page", "lat", "lng"];
const SEARCH_OWN = ["account_id", "geo_boundary_ids", "geometry", "page", "per_page"];
/** Options of the add-in's own, beside the contract's. */
const ADDIN_OPTIONS = ["max_results", "account"];

const rowOf = (operations: readonly ContractOperation[], id: string) =>
  operations.find((operation) => operation.operationId === id) as ContractOperation;

/** The option names a function allows, from the #VALUE! an unknown option gets. */
async function allowedOptions(call: (options: unknown[][]) => Promise<unknown>): Promise<string[]> {
  const error = (await call([["no_such_option=1"]]).then(
    () => undefined,
    (reason: unknown) => reason,
  )) as { code?: string; message?: string } | undefined;
  expect(error?.code).toBe("#VALUE!");
  const allowed = /Allowed: (.*)\.$/.exec(error?.message ?? "")?.[1];
  expect(allowed).toBeDefined();
  return (allowed ?? "").split(", ");
}

const lookupWith = (functions: PropertyFunctions) => (options: unknown[][]) =>
  functions.lookup(options, fakeInvocation());
const propertiesWith = (functions: PropertyFunctions) => (options: unknown[][]) =>
  functions.properties([[""]], undefined, options, undefined, fakeInvocation());

/** The property functions as they are built over `operations` (a contract with a member more, say). */
function propertyFunctionsOver(operations: readonly ContractOperation[]): PropertyFunctions {
  let functions: PropertyFunctions | undefined;
  jest.isolateModules(() => {
    jest.doMock("../../src/api/contractOperations", () => ({ CONTRACT_OPERATIONS: operations }));
    functions = jest.requireActual<PropertyFunctions>("../../src/functions/propertyFunctions");
  });
  jest.dontMock("../../src/api/contractOperations");
  return functions as PropertyFunctions;
}

describe("the property functions' options", () => {
  const today = propertyFunctionsOver(CONTRACT_OPERATIONS);

  it("are, for RENT.LOOKUP, the lookup's query parameters but the add-in's own, with max_results and account", async () => {
    const contract = rowOf(CONTRACT_OPERATIONS, "lookupProperties")
      .parameters.map((parameter) => parameter.name)
      .filter((name) => !LOOKUP_OWN.includes(name));
    expect((await allowedOptions(lookupWith(today))).sort()).toEqual([...contract, ...ADDIN_OPTIONS].sort());
  });

  it("are, for RENT.PROPERTIES, the search body's members but the add-in's own (list filters without [])", async () => {
    const body = rowOf(CONTRACT_OPERATIONS, "searchProperties").body;
    const contract = (body?.properties ?? [])
      .filter((name) => !SEARCH_OWN.includes(name))
      .map((name) => name.replace(/\[\]$/, ""));
    expect((await allowedOptions(propertiesWith(today))).sort()).toEqual(
      [...contract, ...ADDIN_OPTIONS].sort(),
    );
    // The property filters are read as their own (src/functions/args/propertyFilters.ts), the rest by type.
    expect(RECORD_FIELDS.PropertyFilters?.length).toBeGreaterThan(0);
  });

  it("grow with the contract: a member it adds is offered and read by its type", async () => {
    const added: ContractParameter = {
      name: "renovated_since",
      in: "query",
      type: "string",
      format: "date",
      required: false,
    };
    const operations = CONTRACT_OPERATIONS.map((row): ContractOperation => {
      if (row.operationId === "lookupProperties") return { ...row, parameters: [...row.parameters, added] };
      if (row.operationId !== "searchProperties") return row;
      const body = row.body;
      return {
        ...row,
        body: {
          ...body,
          properties: [...body.properties, "parking_ratio_gte"],
          types: { ...body.types, parking_ratio_gte: { type: "integer" } },
          limits: { ...body.limits, parking_ratio_gte: { minimum: 0 } },
        },
      };
    });
    const grown = propertyFunctionsOver(operations);

    expect(await allowedOptions(lookupWith(grown))).toContain("renovated_since");
    await expect(lookupWith(grown)([["renovated_since=last year"]])).rejects.toMatchObject({
      code: "#VALUE!",
      message: expect.stringMatching(/^renovated_since must be a date/),
    });
    expect(await allowedOptions(propertiesWith(grown))).toContain("parking_ratio_gte");
    await expect(propertiesWith(grown)([["parking_ratio_gte=1.5"]])).rejects.toMatchObject({
      code: "#VALUE!",
      message: 'parking_ratio_gte must be a whole number of at least 0, not "1.5".',
    });
    expect(await allowedOptions(lookupWith(today))).not.toContain("renovated_since");
  });

  it("cannot take a member of a type no option holds (a list, a geometry) without a reader for it", () => {
    expect(() => optionMembers("searchProperties", ["account_id"])).toThrow(
      /no option reader for .*geo_boundary_ids, geometry/,
    );
  });

  it("are read by their contract type: a date, a number, a whole number, a choice", async () => {
    const refusals: [string, RegExp][] = [
      ["loan_maturity_date_gte=soon", /^loan_maturity_date_gte must be a date/],
      ["transaction_cap_rate_gte=high", /^transaction_cap_rate_gte must be a number/],
      ["unit_count_gte=-1", /^unit_count_gte must be a whole number of at least 0, not "-1"\.$/],
      ["property_class=D", /^property_class must be one of A, B, C, not "D"\.$/],
    ];
    for (const [options, message] of refusals) {
      await expect(lookupWith(today)([[options]])).rejects.toMatchObject({ code: "#VALUE!", message });
    }
    await expect(propertiesWith(today)([["transaction_date_closed_lte=13/45/2020"]])).rejects.toMatchObject({
      code: "#VALUE!",
      message: expect.stringMatching(/^transaction_date_closed_lte must be a date/),
    });
  });
});
