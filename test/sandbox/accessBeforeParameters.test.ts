/**
 * Access is checked before parameters, as the live service does (api-notes, "Observed on the live service",
 * second pass): a request naming an account, a comp set or a job the caller may not see answers 403 even when a
 * parameter is wrong too; the same wrong parameter on what the caller may see answers 400.
 */
import { compSetsOf } from "../../sandbox/data/compSets";
import { datasetFor } from "../../sandbox/data/dataset";
import { ACCOUNT, startTestSandbox, type TestSandbox } from "./support/fixtures";

let t: TestSandbox;
const dataset = datasetFor(1, 20_000);
const compSetOf = (accountId: number) => {
  const found = compSetsOf(dataset).find((set) => set.accountId === accountId);
  if (!found) throw new Error(`no comp set for account ${accountId}`);
  return found.id;
};

beforeAll(async () => {
  t = await startTestSandbox();
});

afterAll(async () => {
  await t.sandbox.close();
});

/** A request of demo-pro against `account` (its own, or one it may not see), with a bad parameter. */
type BadRequest = (account: number) => { method: string; path: string; json?: object };

const BAD_REQUESTS: [string, BadRequest][] = [
  [
    "an account in the path",
    (account) => ({ method: "GET", path: `/v1/accounts/${account}/comp_sets?page=2` }),
  ],
  [
    "an account in the query",
    (account) => ({
      method: "GET",
      path: `/v1/properties/bulk_details?account_id=${account}&property_ids=1&page=2`,
    }),
  ],
  [
    "an account in the body",
    (account) => ({
      method: "POST",
      path: "/v1/geo_boundaries/search",
      json: { account_id: account, geo_type: "Galaxy" },
    }),
  ],
  [
    "a comp set's units",
    (account) => ({ method: "GET", path: `/v1/comp_sets/${compSetOf(account)}/units?page=2` }),
  ],
  [
    "a comp set's market survey",
    (account) => ({
      method: "GET",
      path: `/v1/comp_sets/${compSetOf(account)}/market_survey?filter[bedroom_count]=many`,
    }),
  ],
  [
    "a comp set's floor plans",
    (account) => ({
      method: "GET",
      path: `/v1/comp_sets/${compSetOf(account)}/floor_plans?filter[collected_at_gte]=yesterday`,
    }),
  ],
];

describe("a request with a bad parameter", () => {
  it.each(BAD_REQUESTS)("naming %s the caller may not see answers 403", async (_, build) => {
    const { method, path, json } = build(ACCOUNT.proPlus);
    const response = await t.client.as<{ message: string }>("demo-pro", method, path, { json });
    expect([response.status, response.body.message]).toEqual([403, expect.stringMatching(/access/)]);
  });

  it.each(BAD_REQUESTS)("naming %s the caller may see answers 400", async (_, build) => {
    const { method, path, json } = build(ACCOUNT.pro);
    const response = await t.client.as("demo-pro", method, path, { json });
    expect(response.status).toBe(400);
  });

  it("naming another client's job answers 403, one's own job 400", async () => {
    const job = (
      await t.client.as<{ job_id: string }>("demo-proplus", "POST", "/v1/bulk_api/jobs", {
        json: {
          report_type: "property",
          output_format: "csv",
          property_ids: [100001],
          start_date: "2026-03-01",
          end_date: "2026-03-01",
        },
      })
    ).body.job_id;
    for (const method of ["GET", "DELETE"]) {
      const foreign = await t.client.as("demo-pro", method, `/v1/bulk_api/jobs/${job}?verbose=1`);
      expect([method, foreign.status]).toEqual([method, 403]);
      const own = await t.client.as("demo-proplus", method, `/v1/bulk_api/jobs/${job}?verbose=1`);
      expect([method, own.status]).toEqual([method, 400]);
    }
  });

  it("without account_id, from a token without bulk details access, answers 403", async () => {
    const response = await t.client.as("demo-base", "GET", "/v1/properties/bulk_details");
    expect(response.status).toBe(403);
    expect((await t.client.as("demo-pro", "GET", "/v1/properties/bulk_details")).status).toBe(400);
  });
});
