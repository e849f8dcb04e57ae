/**
 * Who may see what through the relay: accounts cut down per person, another account's cached answers never
 * served, comp sets and export jobs of others refused, and a revoked key refused on its next request.
 */
import type { RunningSandbox } from "../../sandbox/server";
import { request } from "node:http";
import { revokeUser } from "../../relay/users/userAdmin";
import { compSetsOf } from "../../sandbox/data/compSets";
import { startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

const SHARED = 100;
const PRIVATE = 103;

let sandbox: RunningSandbox;
let relay: TestRelay;
let wide: string;
let narrow: string;
let propertyIds: number[];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  relay = await startTestRelay(sandbox);
  wide = await relay.addUser("wide", [SHARED, PRIVATE]);
  narrow = await relay.addUser("narrow", [SHARED]);
  propertyIds = sandbox
    .dataset()
    .properties.slice(0, 3)
    .map((property) => property.id);
});

function statusOfRawPath(path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(`${relay.url}${path}`, { headers: { Authorization: `Bearer ${key}` } }, (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    sent.path = path;
    sent.on("error", reject);
    sent.end();
  });
}

function rawAnswer(method: string, path: string, key: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${relay.url}/`,
      { method, headers: { Authorization: `Bearer ${key}` } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () =>
          resolve({ status: answer.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    sent.path = path;
    sent.on("error", reject);
    sent.end();
  });
}

afterAll(async () => {
  await relay.close();
  await sandbox.close();
});

test("the account list holds only the accounts given to the person", async () => {
  const answer = await relay.api(narrow, "/v1/accounts");
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as { data: { id: number }[]; pagination: { total_count: number } };
  expect(body.data.map((account) => account.id)).toEqual([SHARED]);
  expect(body.pagination.total_count).toBe(1);
});

test("a person never receives another account's cached answer", async () => {
  const query = `/v1/properties/bulk_details?account_id=${PRIVATE}&property_ids=${propertyIds.join(",")}`;
  const first = await relay.api(wide, query);
  expect(first.status).toBe(200);
  const cachedText = await first.text();
  expect(JSON.parse(cachedText).data).toHaveLength(3);
  const before = sandbox.counters.get("/v1/properties/bulk_details");
  expect((await relay.api(wide, query)).status).toBe(200);
  // The answer is in the relay's cache: asked again, it costs the service nothing.
  expect(sandbox.counters.get("/v1/properties/bulk_details")).toBe(before);

  const refused = await relay.api(narrow, query);
  expect(refused.status).toBe(403);
  const refusedText = await refused.text();
  expect(JSON.parse(refusedText).message).toMatch(
    /Account 103 is not one the team relay gives narrow.*admin/,
  );
  expect(refusedText).not.toContain(String(propertyIds[0]));

  const market = { account_id: PRIVATE, limit: 3 };
  expect((await relay.api(wide, "/v1/explore_markets", market)).status).toBe(200);
  expect((await relay.api(narrow, "/v1/explore_markets", market)).status).toBe(403);
  // An account in the query of an operation whose account is in its body: not a parameter of the contract.
  expect((await relay.api(narrow, `/v1/explore_markets?account_id=${SHARED}`, market)).status).toBe(400);
});

test("comp sets of another account are refused, even when the relay has them cached", async () => {
  const list = await relay.api(wide, `/v1/accounts/${PRIVATE}/comp_sets`);
  expect(list.status).toBe(200);
  const compSetId = ((await list.json()) as { data: { id: string }[] }).data[0]?.id as string;
  expect((await relay.api(wide, `/v1/comp_sets/${compSetId}/units`)).status).toBe(200);
  expect((await relay.api(narrow, `/v1/accounts/${PRIVATE}/comp_sets`)).status).toBe(403);
  const units = await relay.api(narrow, `/v1/comp_sets/${compSetId}/units`);
  expect(units.status).toBe(403);
  expect(((await units.json()) as { message: string }).message).toContain(`Comp set ${compSetId}`);
});

test("a person holding every account of the relay reads comp sets with no list read; the service refuses the rest", async () => {
  // A relay of its own, so that no comp set list is cached yet.
  const fresh = await startTestRelay(sandbox);
  try {
    const everything = await fresh.addUser("everything", [SHARED, PRIVATE, 101]);
    const oneOfThem = await fresh.addUser("one-of-them", [SHARED]);
    const compSets = compSetsOf(sandbox.dataset());
    const ofAccount = (account: number) => compSets.find((compSet) => compSet.accountId === account)?.id;
    const lists = () => sandbox.counters.get("/v1/accounts/:account_id/comp_sets");
    // The relay's account list is read by everyone's sign-in, and by this check: one read for both.
    expect((await fresh.api(everything, "/v1/accounts")).status).toBe(200);
    const before = lists();
    expect((await fresh.api(everything, `/v1/comp_sets/${ofAccount(PRIVATE)}/units`)).status).toBe(200);
    expect((await fresh.api(everything, `/v1/comp_sets/${ofAccount(SHARED)}/market_survey`)).status).toBe(
      200,
    );
    expect(lists()).toBe(before);
    // Account 101 is the person's but not the relay's: the service refuses its comp set, and so does the relay.
    expect((await fresh.api(everything, `/v1/comp_sets/${ofAccount(101)}/units`)).status).toBe(403);
    // Someone holding fewer accounts than the relay is still checked against the lists.
    expect((await fresh.api(oneOfThem, `/v1/comp_sets/${ofAccount(PRIVATE)}/units`)).status).toBe(403);
    expect(lists()).toBeGreaterThan(before);
  } finally {
    await fresh.close();
  }
});

test("export jobs are seen, cancelled and downloaded only by whoever submitted them", async () => {
  const submitted = await relay.api(wide, "/v1/bulk_api/jobs", {
    report_type: "property",
    output_format: "csv",
    start_date: "2026-10-01",
    end_date: "2026-10-02",
    property_ids: propertyIds,
  });
  expect(submitted.status).toBeLessThan(300);
  const { job_id: jobId } = (await submitted.json()) as { job_id: string };
  expect((await relay.api(wide, `/v1/bulk_api/jobs/${jobId}`)).status).toBe(200);
  expect((await relay.api(narrow, `/v1/bulk_api/jobs/${jobId}`)).status).toBe(403);
  expect((await relay.api(narrow, `/v1/bulk_api/jobs/${jobId}/results`)).status).toBe(403);
  const theirs = (await (await relay.api(narrow, "/v1/bulk_api/jobs")).json()) as {
    jobs: { job_id: string }[];
  };
  expect(theirs.jobs.map((job) => job.job_id)).not.toContain(jobId);
  const mine = (await (await relay.api(wide, "/v1/bulk_api/jobs")).json()) as { jobs: { job_id: string }[] };
  expect(mine.jobs.map((job) => job.job_id)).toContain(jobId);
});

test("a revoked key fails the very next request with a message that says what to do", async () => {
  const key = await relay.addUser("leaver", [SHARED]);
  expect((await relay.api(key, "/v1/accounts")).status).toBe(200);
  await revokeUser(relay.relay.store.users, "leaver");
  const refused = await relay.api(key, "/v1/accounts");
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { message: string }).message).toMatch(
    /revoked.*Ask your relay admin for a new key/,
  );
});

test("a request without a key, or with a made-up one, is refused", async () => {
  const bare = await fetch(`${relay.url}/api/v1/accounts`);
  expect(bare.status).toBe(401);
  expect(((await bare.json()) as { message: string }).message).toContain("personal key");
  const forged = `${wide.slice(0, -4)}AAAA`;
  expect((await relay.api(forged, "/v1/accounts")).status).toBe(401);
});

test("the status page is for admins, and shows the window's spend, the cache and each person's requests", async () => {
  const admin = await relay.addUser("ops", [], true);
  const status = await fetch(`${relay.url}/relay/status`, { headers: { Authorization: `Bearer ${admin}` } });
  expect(status.status).toBe(200);
  const figures = (await status.json()) as {
    upstream: { spentThisWindow: number; limit: number; total: number; byEndpoint: Record<string, number> };
    cache: { hits: number; hitRate: number };
    quotaUsedByAccount: Record<string, number>;
    requestsByUser: Record<string, number>;
  };
  expect(figures.upstream.limit).toBe(1_000_000);
  expect(figures.upstream.spentThisWindow).toBeGreaterThan(0);
  expect(figures.upstream.spentThisWindow).toBeLessThanOrEqual(figures.upstream.total);
  expect(figures.cache.hits).toBeGreaterThan(0);
  expect(figures.upstream.byEndpoint.getBulkPropertyDetails).toBe(1);
  expect(figures.upstream.byEndpoint.listCompSetUnits).toBe(1);
  expect(figures.quotaUsedByAccount[String(PRIVATE)]).toBe(3);
  expect(figures.requestsByUser.wide).toBeGreaterThan(0);
  expect(figures.requestsByUser.narrow).toBeGreaterThan(0);
  const refused = await fetch(`${relay.url}/relay/status`, {
    headers: { Authorization: `Bearer ${narrow}` },
  });
  expect(refused.status).toBe(403);
  expect((await fetch(`${relay.url}/relay/`)).headers.get("content-type")).toContain("text/html");
});

test("a path that climbs out of the API is refused before anything reaches the service", async () => {
  const key = await relay.addUser("climber", [SHARED]);
  const before = sandbox.counters.total();
  for (const path of [
    "/v1/%2e%2e/oauth/token",
    "/v1/accounts/..%2f..%2foauth",
    "/v1/./accounts/100/comp_sets",
  ]) {
    // Sent as written: fetch would resolve the dot segments itself before they reach the relay.
    expect(await statusOfRawPath(`/api${path}?account_id=${SHARED}`, key)).toBe(404);
  }
  expect(sandbox.counters.total()).toBe(before);
});

test("another account's data stays out of reach, however the request is spelled", async () => {
  const key = await relay.addUser("spelling", [SHARED]);
  const list = await relay.api(wide, `/v1/accounts/${PRIVATE}/comp_sets`);
  const theirCompSet = ((await list.json()) as { data: { id: string }[] }).data[0]?.id as string;
  const theirJob = (await (
    await relay.api(wide, "/v1/bulk_api/jobs", {
      report_type: "property",
      output_format: "csv",
      start_date: "2026-10-01",
      end_date: "2026-10-02",
      property_ids: propertyIds,
    })
  ).json()) as { job_id: string };
  const attacks: [string, string][] = [
    ["GET", `/api/v1/accounts/${PRIVATE}/comp_set%73?#&account_id=${SHARED}`],
    ["GET", `/api/v1/comp_set%73/${theirCompSet}/units?#&account_id=${SHARED}`],
    ["GET", `/api/v1/account%73?#&account_id=${SHARED}`],
    ["GET", `/api/v1/accounts/${PRIVATE}.0/comp_sets`],
    ["GET", `/api/v1/accounts/${PRIVATE}e0/comp_sets`],
    ["GET", `/api/v1/accounts/%20${PRIVATE}/comp_sets`],
    ["GET", `/api/v1/comp_sets/${theirCompSet}.0/units`],
    ["GET", `/api/v1/bulk_api/job%73`],
    ["GET", `/api/v1/bulk_api/job%73/${theirJob.job_id}/results`],
    ["DELETE", `/api/v1/bulk_api/job%73/${theirJob.job_id}`],
    ["GET", `/%61pi/v1/accounts/${PRIVATE}/comp_sets`],
  ];
  for (const [method, attack] of attacks) {
    const answer = await rawAnswer(method, attack, key);
    // Refused, or answered with the person's own (empty) share: never another's comp set, job or account.
    const leaked =
      answer.status < 400 &&
      [theirJob.job_id, theirCompSet, `"id":${PRIVATE}`, `"id":"${PRIVATE}"`].some((fact) =>
        answer.text.includes(fact),
      );
    expect({ method, attack, leaked, status: answer.status < 500 }).toEqual({
      method,
      attack,
      leaked: false,
      status: true,
    });
  }
  const job = await relay.api(wide, `/v1/bulk_api/jobs/${theirJob.job_id}`);
  expect(((await job.json()) as { status: string }).status).not.toBe("cancelled");
});
