/**
 * Tenant isolation: no demo client reads another client's accounts, comp sets or jobs, whether it asks the
 * service directly (every account-scoped, comp-set and job endpoint, for every pair of clients) or through
 * the add-in (a sign-in over the same IndexedDB as an earlier sign-in that cached the other client's data).
 */
import "fake-indexeddb/auto";
import { compSetsOf } from "../../sandbox/data/compSets";
import { DEMO_CLIENTS, SHARED_ACCOUNT_ID, accountsForClient } from "../../sandbox/data/clients";
import { session, Session } from "../../src/session/session";
import { compSets } from "../../src/functions/accountFunctions";
import { survey, units } from "../../src/functions/compSetFunctions";
import { market } from "../../src/functions/marketFunctions";
import { fakeInvocation } from "../support/invocation";
import { startTestSandbox, type TestSandbox } from "../sandbox/support/fixtures";

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox({ rateLimit: 1_000_000, jobStartDelayMs: 0 });
});

afterAll(async () => {
  session.signOut();
  await t.sandbox.close();
});

/** Pairs (reader, owner) of different clients with the owner's private accounts. */
const pairs = DEMO_CLIENTS.flatMap((reader) =>
  DEMO_CLIENTS.filter((owner) => owner !== reader).map((owner) => ({
    reader: reader.clientId,
    owner: owner.clientId,
    privateAccounts: owner.accountIds.filter((id) => id !== SHARED_ACCOUNT_ID),
  })),
);

/** Jobs need the pro tier, so only pro and pro-plus clients own any. */
const jobPairs = pairs.filter(
  (pair) => DEMO_CLIENTS.find((client) => client.clientId === pair.owner)?.tier !== "base",
);

/** Every request that names an account, for account `accountId`. */
function accountScopedRequests(accountId: number, msaId: number): [string, string, unknown][] {
  const aggregations = [{ name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" }];
  return [
    ["GET", `/v1/accounts/${accountId}/comp_sets`, undefined],
    ["GET", `/v1/properties/lookup?account_id=${accountId}&per_page=1`, undefined],
    ["GET", `/v1/properties/bulk_details?account_id=${accountId}&property_ids=100001`, undefined],
    ["GET", `/v1/markets/narratives?account_id=${accountId}&geo_boundary_id=${msaId}`, undefined],
    ["POST", "/v1/explore_markets", { account_id: accountId, sort: "rent_avg_t30", limit: 5 }],
    ["POST", "/v1/geo_boundaries/search", { account_id: accountId, query: "*" }],
    ["POST", "/v1/geo_boundaries/properties", { account_id: accountId, per_page: 1 }],
    ["POST", "/v1/properties/100001/forecasts", { account_id: accountId, aggregations }],
    [
      "POST",
      `/v1/geo_boundary/${msaId}/forecasts`,
      { account_id: accountId, aggregations: [{ ...aggregations[0], field: "rent_growth_yoy" }] },
    ],
  ];
}

function msaId(): number {
  const msa = t.sandbox.context.dataset().geography.boundaries.find((boundary) => boundary.geoType === "MSA");
  if (!msa) throw new Error("The sandbox has no MSA");
  return msa.id;
}

describe("over HTTP", () => {
  it.each(DEMO_CLIENTS.map((client) => client.clientId))("lists only %s's own accounts", async (clientId) => {
    const response = await t.client.as<{ data: { id: number }[] }>(clientId, "GET", "/v1/accounts");
    expect(response.body.data.map((account) => account.id)).toEqual(
      accountsForClient(clientId).map((account) => account.id),
    );
  });

  it.each(pairs)("refuses $reader every request for $owner's private accounts", async (pair) => {
    for (const accountId of pair.privateAccounts) {
      for (const [method, path, json] of accountScopedRequests(accountId, msaId())) {
        const response = await t.client.as(pair.reader, method, path, { json });
        expect({ path, status: response.status }).toEqual({ path, status: 403 });
      }
    }
  });

  it.each(pairs)("refuses $reader the survey, units and floor plans of $owner's comp sets", async (pair) => {
    const theirs = compSetsOf(t.sandbox.context.dataset()).filter((compSet) =>
      pair.privateAccounts.includes(compSet.accountId),
    );
    expect(theirs.length).toBeGreaterThan(0);
    for (const compSet of theirs) {
      for (const part of ["market_survey", "units", "floor_plans"]) {
        const path = `/v1/comp_sets/${compSet.id}/${part}`;
        const response = await t.client.as(pair.reader, "GET", path);
        expect({ path, status: response.status }).toEqual({ path, status: 403 });
      }
    }
  });

  it.each(jobPairs)(
    "keeps $owner's jobs from $reader: not listed, not readable, not cancellable",
    async (pair) => {
      const created = await t.client.as<{ job_id: string }>(pair.owner, "POST", "/v1/bulk_api/jobs", {
        json: {
          report_type: "property",
          output_format: "csv",
          property_ids: [100001],
          start_date: "2026-03-01",
          end_date: "2026-03-01",
        },
      });
      expect(created.status).toBe(201);
      const jobId = created.body.job_id;
      await t.sandbox.context.worker.flush();
      for (const [method, path] of [
        ["GET", `/v1/bulk_api/jobs/${jobId}`],
        ["GET", `/v1/bulk_api/jobs/${jobId}/results`],
        ["DELETE", `/v1/bulk_api/jobs/${jobId}`],
      ] as const) {
        const response = await t.client.as(pair.reader, method, path);
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 403 });
      }
      // A base client may not list jobs at all (403); any other sees its own list only.
      const listed = await t.client.as<{ jobs: { job_id: string }[] }>(
        pair.reader,
        "GET",
        "/v1/bulk_api/jobs",
      );
      expect([200, 403]).toContain(listed.status);
      const visible = listed.status === 200 ? listed.body.jobs.map((job) => job.job_id) : [];
      expect(visible).not.toContain(jobId);
      // The refused cancellation left the owner's job as it was.
      const own = await t.client.as<{ status: string }>(pair.owner, "GET", `/v1/bulk_api/jobs/${jobId}`);
      expect(own.body.status).toBe("succeeded");
    },
  );
});

describe("through the add-in", () => {
  const config = () => ({ serviceUrl: t.sandbox.url, tokenUrl: `${t.sandbox.url}/oauth/token` });
  const signInAs = (clientId: string) => {
    const client = DEMO_CLIENTS.find((candidate) => candidate.clientId === clientId);
    if (!client) throw new Error(clientId);
    return session.signIn(config(), { kind: "client", clientId, clientSecret: client.clientSecret });
  };

  it("never serves one client's cached comp sets, units or surveys to another over the same IndexedDB", async () => {
    // Same database for both sign-ins, as in one add-in runtime: only the cache keys keep them apart.
    session.useDataOptions({ databaseName: `isolation-${process.pid}` });
    const proCompSet = compSetsOf(t.sandbox.context.dataset()).find((compSet) => compSet.accountId === 102);
    if (!proCompSet) throw new Error("account 102 has no comp set");

    await signInAs("demo-pro");
    await expect(survey(proCompSet.id, undefined, undefined, fakeInvocation())).resolves.toEqual(
      expect.any(Array),
    );
    await expect(
      units(proCompSet.id, undefined, undefined, null, null, undefined, undefined, fakeInvocation()),
    ).resolves.toEqual(expect.any(Array));
    await expect(compSets(102, fakeInvocation())).resolves.toEqual(expect.any(Array));

    await signInAs("demo-proplus");
    const forbidden = { code: "#N/A", message: expect.stringMatching(/access|may act|not one/i) };
    await expect(survey(proCompSet.id, undefined, undefined, fakeInvocation())).rejects.toMatchObject(
      forbidden,
    );
    await expect(
      units(proCompSet.id, undefined, undefined, null, null, undefined, undefined, fakeInvocation()),
    ).rejects.toMatchObject(forbidden);
    await expect(compSets(102, fakeInvocation())).rejects.toMatchObject(forbidden);
    await expect(
      market([[msaId()]], [["rent_avg_t30"]], [["account", 102]], fakeInvocation()),
    ).rejects.toMatchObject(forbidden);
    expect(() => session.selectAccount(102)).toThrow(/102/);
  });

  it("gives a sign-in only its own accounts, whatever another sign-in of the runtime chose", async () => {
    const other = new Session(undefined, { databaseName: `isolation-accounts-${process.pid}` });
    const proPlus = await other.signIn(config(), {
      kind: "client",
      clientId: "demo-proplus",
      clientSecret: "sandbox-secret-proplus",
    });
    other.selectAccount(103);
    const pro = await signInAs("demo-pro");
    expect(pro.accounts.map((account) => account.id)).toEqual([SHARED_ACCOUNT_ID, 102]);
    expect(proPlus.accounts.map((account) => account.id)).toEqual([SHARED_ACCOUNT_ID, 103]);
    expect(session.requireSignedIn().accountId).not.toBe(103);
  });
});
