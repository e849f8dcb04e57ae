/**
 * The table of operations: the generated rows are today's contract, every operation carries this project's
 * decisions, and requests are matched and rebuilt from typed values only.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { contractOperationsSource } from "../../scripts/generateOperations";
import {
  OPERATIONS,
  RequestRefusal,
  matchOperation,
  operationIdOf,
  upstreamBody,
  upstreamTarget,
} from "../../src/api/operations";

const root = join(__dirname, "..", "..");

function refusalOf(run: () => unknown): { status: number; message: string } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof RequestRefusal) return { status: error.status, message: error.message };
    throw error;
  }
}

describe("the operations table", () => {
  it("is what scripts/generateOperations.ts makes of openapi.yaml today (run `npm run generate:api` if not)", () => {
    const file = join(root, "src", "api", "contractOperations.ts");
    // Formatted as `generate:api` formats it, by prettier's own command line.
    const generated = execFileSync(
      process.execPath,
      [join(root, "node_modules", "prettier", "bin", "prettier.cjs"), "--stdin-filepath", file],
      { cwd: root, input: contractOperationsSource(), encoding: "utf8" },
    );
    expect(readFileSync(file, "utf8")).toBe(generated);
  });

  it("reads where each operation names an account, a comp set or a job from the contract", () => {
    const reach = Object.fromEntries(OPERATIONS.map((operation) => [operation.operationId, operation.reach]));
    expect(reach.listCompSets).toEqual({ kind: "account", in: "path" });
    expect(reach.getBulkPropertyDetails).toEqual({ kind: "account", in: "query" });
    expect(reach.exploreMarkets).toEqual({ kind: "account", in: "body" });
    expect(reach.listCompSetUnits).toEqual({ kind: "comp_set" });
    expect(reach.getBulkJobResults).toEqual({ kind: "job" });
    expect(reach.listAccounts).toEqual({ kind: "own_accounts" });
    expect(reach.createBulkJob).toEqual({ kind: "own_jobs" });
    // Every operation is either about an account's data or the caller's own list: none is unowned.
    expect(OPERATIONS.length).toBe(18);
  });

  it("matches decoded paths exactly and parses ids as digits", () => {
    const units = matchOperation("GET", "/comp_set%73/0103/units", "filter%5Bbedroom_count%5D=1");
    expect(units.operation.operationId).toBe("listCompSetUnits");
    expect(upstreamTarget(units)).toBe("/comp_sets/103/units?filter[bedroom_count]=1");
    for (const spelled of ["103.0", "103e0", "%20103", "+103", "0x67", "-103", ""])
      expect(refusalOf(() => matchOperation("GET", `/accounts/${spelled}/comp_sets`, ""))?.status).toBe(
        spelled === "" ? 404 : 400,
      );
    expect(refusalOf(() => matchOperation("GET", "/comp_set%2573/103/units", ""))?.status).toBe(404);
    expect(refusalOf(() => matchOperation("GET", "/accounts/103/comp_sets/", ""))?.status).toBe(404);
    expect(
      refusalOf(() => matchOperation("GET", "/accounts/103/comp_sets", "#&account_id=100"))?.status,
    ).toBe(400);
    expect(refusalOf(() => matchOperation("DELETE", "/accounts/103/comp_sets", ""))).toEqual({
      status: 405,
      message: "This path takes GET, not DELETE.",
    });
  });

  it("refuses parameters the contract does not name, twice-given values and a job id that is not a UUID", () => {
    expect(
      refusalOf(() => matchOperation("GET", "/properties/lookup", "account_id=100&account_id=103")),
    ).toEqual({
      status: 400,
      message: "account_id must be given once",
    });
    expect(
      refusalOf(() => matchOperation("GET", "/properties/lookup", "account_id=100&x=1"))?.message,
    ).toMatch(/lookupProperties takes no parameter "x"/);
    expect(refusalOf(() => matchOperation("GET", "/bulk_api/jobs/..%2F..%2Foauth", ""))?.message).toBe(
      "job_id must be a valid UUID",
    );
  });

  it("takes the account of a body as a positive whole number and rebuilds the body from its parsed value", () => {
    const body = { account_id: 100, limit: 2 };
    const request = matchOperation("POST", "/explore_markets", "", body);
    expect(request.accountId).toBe(100);
    expect(upstreamBody(request)).toBe(JSON.stringify(body));
    for (const account of ["100", 100.5, [100], -100, 0])
      expect(
        refusalOf(() => matchOperation("POST", "/explore_markets", "", { account_id: account }))?.status,
      ).toBe(400);
  });
});

test("a request to the service is named by its operation, whatever its ids", () => {
  expect(operationIdOf("GET", "/comp_sets/10301/units?filter[bedroom_count]=1")).toBe("listCompSetUnits");
  expect(operationIdOf("delete", "/bulk_api/jobs/7eefcd2a-d515-4e46-bb0b-0a74a4fefcca")).toBe(
    "cancelBulkJob",
  );
  expect(operationIdOf("GET", "/oauth/token")).toBeUndefined();
});
