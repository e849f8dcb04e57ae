/**
 * The request schemas the one validator compiles from (src/api/contractRequests.ts) are what
 * scripts/generateRequestSchemas.ts makes of openapi.yaml today, and the validator reads the contract's id limit.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { contractRequestsSource } from "../../scripts/generateRequestSchemas";
import { validateRequest } from "../../src/api/requestValidator";

const root = join(__dirname, "..", "..");

it("is what scripts/generateRequestSchemas.ts makes of openapi.yaml today (run `npm run generate:api` if not)", () => {
  const file = join(root, "src", "api", "contractRequests.ts");
  const generated = execFileSync(
    process.execPath,
    [join(root, "node_modules", "prettier", "bin", "prettier.cjs"), "--stdin-filepath", file],
    { cwd: root, input: contractRequestsSource(), encoding: "utf8" },
  );
  expect(readFileSync(file, "utf8")).toBe(generated);
});

it("holds a call's ids to x-max-ids over its comma list and its repeated list together", () => {
  const ids = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);
  const check = (query: Record<string, unknown>) =>
    validateRequest("getBulkPropertyDetails", {
      params: {},
      query: { account_id: "100", ...query },
      body: undefined,
      contentType: undefined,
    });
  expect(check({ property_ids: ids(1, 200).join(",") }).ok).toBe(true);
  // The same id twice is one property.
  expect(check({ property_ids: [...ids(1, 200), 1].join(",") }).ok).toBe(true);
  const tooMany = { ok: false, status: 400, errors: ["property_ids must contain at most 200 ids"] };
  expect(check({ property_ids: ids(1, 201).join(",") })).toEqual(tooMany);
  expect(check({ property_ids: ids(1, 150).join(","), "property_ids[]": ids(1001, 51).map(String) })).toEqual(
    tooMany,
  );
});
