/**
 * What the relay keeps and hands out: only real answers are cached and they expire by a clock that moves;
 * POST reads with different bodies stay apart; download links are their owner's, short-lived and unlogged;
 * job lists page per person; a key with no accounts sees nothing; a job nobody owns is for admins only.
 */
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { DOWNLOAD_LINK_TTL_MS } from "../../relay/routes/jobRoutes";
import { FreshnessSchedule } from "../../src/data/freshnessSchedule";
import { RELAY_CLIENT, startTestRelay, type TestRelay, succeededJob } from "./support/relayHarness";

const MINE = 100;

let sandbox: RunningSandbox;
let relay: TestRelay;
let me: string;
let colleague: string;
let clockMs = Date.parse("2026-11-25T12:00:00Z");
/** The vendor moved its daily posting: the relay is told so (--posting-time). */
const POSTING_TIME = "08:00";
const DAY_MS = 24 * 3_600_000;

beforeAll(async () => {
  // The fault controls of the sandbox (its admin routes) stand in for a service that misbehaves.
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000, admin: true });
  relay = await startTestRelay(sandbox, { clock: () => clockMs, postingTime: POSTING_TIME });
  me = await relay.addUser("me", [MINE]);
  colleague = await relay.addUser("colleague", [MINE]);
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

afterEach(async () => {
  await fetch(`${sandbox.url}/admin/faults`, { method: "DELETE" });
});

async function setFaults(faults: Record<string, unknown>): Promise<void> {
  const answer = await fetch(`${sandbox.url}/admin/faults`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(faults),
  });
  expect(answer.status).toBe(200);
}

const NARRATIVES = "/v1/markets/narratives";

/** The id of the `index`-th MSA: each test below reads narratives of markets no other test has read. */
const msa = (index: number) =>
  sandbox.dataset().geography.boundaries.filter((boundary) => boundary.geoType === "MSA")[index]
    ?.id as number;

async function narrativeOf(marketId: number): Promise<Response> {
  return relay.api(me, `${NARRATIVES}?account_id=${MINE}&geo_boundary_id=${marketId}`);
}

test("a maintenance page or an answer of the wrong shape is passed on but never cached", async () => {
  const marketId = (sandbox.dataset().properties[0] as { msaId: number }).msaId;
  for (const replaced of ["<html><body>Down for maintenance</body></html>", '{"maintenance":true}']) {
    await setFaults({ replacedBodies: { getMarketNarratives: replaced } });
    const before = sandbox.counters.get(NARRATIVES);
    expect(await (await narrativeOf(marketId)).text()).toBe(replaced);
    expect(await (await narrativeOf(marketId)).text()).toBe(replaced);
    // Both reached the service: the first was not kept.
    expect(sandbox.counters.get(NARRATIVES)).toBe(before + 2);
    await fetch(`${sandbox.url}/admin/faults`, { method: "DELETE" });
  }
  const real = await narrativeOf(marketId);
  expect(real.status).toBe(200);
  const before = sandbox.counters.get(NARRATIVES);
  expect((await narrativeOf(marketId)).status).toBe(200);
  expect(sandbox.counters.get(NARRATIVES)).toBe(before);
});

test("an error answer is never cached", async () => {
  const marketId = msa(10);
  await setFaults({ errorRate: 1 });
  const before = sandbox.counters.get(NARRATIVES);
  expect((await narrativeOf(marketId)).status).toBe(500);
  expect((await narrativeOf(marketId)).status).toBe(500);
  expect(sandbox.counters.get(NARRATIVES)).toBe(before + 2);
});

test("a not-found answer is kept until the next posting, as the add-in keeps it, and then asked again", async () => {
  const unknownMarket = 999_999_999;
  const before = sandbox.counters.get(NARRATIVES);
  const first = await narrativeOf(unknownMarket);
  expect(first.status).toBe(404);
  const said = ((await first.json()) as { message: string }).message;
  expect(said).toContain(String(unknownMarket));
  const again = await narrativeOf(unknownMarket);
  expect(again.status).toBe(404);
  expect(await again.json()).toEqual({ error: "Not Found", message: said });
  expect(sandbox.counters.get(NARRATIVES)).toBe(before + 1);
  clockMs += DAY_MS;
  expect((await narrativeOf(unknownMarket)).status).toBe(404);
  expect(sandbox.counters.get(NARRATIVES)).toBe(before + 2);
});

test("past the next posting, the last answer kept is served while the service cannot be reached", async () => {
  const marketId = msa(11);
  const fresh = await narrativeOf(marketId);
  expect(fresh.status).toBe(200);
  const kept = await fresh.text();
  clockMs += DAY_MS;
  // Every connection to the service is dropped without an answer: the service cannot be reached.
  await setFaults({ dropRate: 1 });
  const before = sandbox.counters.get(NARRATIVES);
  const stale = await narrativeOf(marketId);
  expect(stale.status).toBe(200);
  expect(await stale.text()).toBe(kept);
  // It was asked (and could not answer): the expired answer is not served as if it were fresh.
  expect(sandbox.counters.get(NARRATIVES)).toBeGreaterThan(before);
  // Nothing kept for this one: the person hears that the service cannot be reached.
  expect((await narrativeOf(msa(12))).status).toBe(502);
  await fetch(`${sandbox.url}/admin/faults`, { method: "DELETE" });
  const back = await narrativeOf(marketId);
  expect(back.status).toBe(200);
});

test("a cached answer expires with its kind's lifetime, by the relay's clock", async () => {
  const path = `/v1/accounts/${MINE}/comp_sets`;
  const count = () => sandbox.counters.total();
  expect((await relay.api(me, path)).status).toBe(200);
  const fetched = count();
  // A comp set list has no schedule (x-freshness any_time): it is served for an hour.
  clockMs += 3_600_000 - 1000;
  expect((await relay.api(me, path)).status).toBe(200);
  expect(count()).toBe(fetched);
  clockMs += 2000;
  expect((await relay.api(me, path)).status).toBe(200);
  expect(count()).toBe(fetched + 1);
});

test("a market answer is served until the service's next posting at the relay's posting time, then asked again", async () => {
  const marketId = msa(13);
  expect((await narrativeOf(marketId)).status).toBe(200);
  const before = sandbox.counters.get(NARRATIVES);
  const posting = new FreshnessSchedule(POSTING_TIME).nextPostingAfter(clockMs);
  // At 07:00 (the default) the posting would come a day later than at 08:00 US Eastern.
  expect(new FreshnessSchedule().nextPostingAfter(clockMs)).not.toBe(posting);
  clockMs = posting - 1000;
  expect((await narrativeOf(marketId)).status).toBe(200);
  expect(sandbox.counters.get(NARRATIVES)).toBe(before);
  clockMs = posting;
  expect((await narrativeOf(marketId)).status).toBe(200);
  expect(sandbox.counters.get(NARRATIVES)).toBe(before + 1);
});

test("two POST reads with different bodies are told apart in flight and in the cache", async () => {
  // A shape the market batcher does not carry (no geo_boundary_ids): forwarded and cached whole.
  const ask = (limit: number) => relay.api(me, "/v1/explore_markets", { account_id: MINE, limit });
  const lengths = async (answers: Response[]) =>
    Promise.all(answers.map(async (answer) => ((await answer.json()) as { data: unknown[] }).data.length));
  expect(await lengths(await Promise.all([ask(2), ask(3), ask(2), ask(3)]))).toEqual([2, 3, 2, 3]);
  expect(await lengths(await Promise.all([ask(3), ask(2)]))).toEqual([3, 2]);
});

test("an explore markets body as the add-in's batcher sends it is answered per market; any other body is forwarded whole", async () => {
  const EXPLORE = "/v1/explore_markets";
  const [first, second] = [msa(20), msa(21)];
  const batcherBody = (ids: number[]) => ({
    account_id: MINE,
    market_filters: { geo_boundary_ids: ids },
    sort: "property_count_total",
    sort_direction: "desc",
    limit: ids.length,
  });
  const ids = async (answer: Response) =>
    ((await answer.json()) as { data: { id: string }[] }).data.map((market) => Number(market.id)).sort();
  const before = sandbox.counters.get(EXPLORE);
  expect(await ids(await relay.api(me, EXPLORE, batcherBody([first, second])))).toEqual(
    [first, second].sort(),
  );
  // Each market was kept on its own: a colleague's differently split question costs nothing.
  expect(await ids(await relay.api(colleague, EXPLORE, batcherBody([second])))).toEqual([second]);
  expect(sandbox.counters.get(EXPLORE)).toBe(before + 1);
  // Not the batcher's body (another ranking): the service is asked for exactly what was sent.
  const ranked = { ...batcherBody([second]), sort_direction: "asc" };
  expect((await relay.api(colleague, EXPLORE, ranked)).status).toBe(200);
  expect(sandbox.counters.get(EXPLORE)).toBe(before + 2);
});

const jobOf = (key: string) => succeededJob(relay, sandbox, key);

test("a download link works for its owner's key only, for a short while, and never appears in the log", async () => {
  const jobId = await jobOf(me);
  const results = await fetch(`${relay.url}/api/v1/bulk_api/jobs/${jobId}/results`, {
    headers: { Authorization: `Bearer ${me}` },
    redirect: "manual",
  });
  expect(results.status).toBe(302);
  const link = new URL(results.headers.get("location") as string, results.url).href;
  const linkId = link.slice(link.lastIndexOf("/") + 1);
  expect(linkId).toMatch(/^[A-Za-z0-9_-]{22,}$/);

  // The results redirect's link is the pane's own fetch, which carries the key; a browser gets a link of its own.
  expect((await fetch(link)).status).toBe(401);
  expect((await fetch(link, { headers: { Authorization: `Bearer ${colleague}` } })).status).toBe(404);
  const file = await fetch(link, { headers: { Authorization: `Bearer ${me}` } });
  expect(file.status).toBe(200);
  expect((await file.text()).split("\n")[0]).toContain("property_name");

  clockMs += DOWNLOAD_LINK_TTL_MS + 1000;
  expect((await fetch(link, { headers: { Authorization: `Bearer ${me}` } })).status).toBe(404);
  expect(relay.log.text).not.toContain(linkId);
  expect(relay.log.text).toContain("/api/downloads/[redacted]");
});

/** Asks the relay, with `key`, for a link the person's browser can open; answers the response and the link. */
async function browserLink(key: string | undefined, jobId: unknown) {
  const made = await fetch(`${relay.url}/api/downloads/links`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify({ job_id: jobId }),
  });
  const answer = made.status === 201 ? ((await made.json()) as { link: string }) : undefined;
  return { made, link: answer && new URL(answer.link, made.url).href };
}

/** The person's own browser: no key, no cookie, nothing of the pane's. */
const inBrowser = (link: string) => fetch(link, { credentials: "omit" });

test("the job's owner gets a link the browser opens without a key, once, and the log never shows it", async () => {
  const jobId = await jobOf(me);
  const { made, link } = await browserLink(me, jobId);
  expect(made.status).toBe(201);
  const linkId = (link as string).slice((link as string).lastIndexOf("/") + 1);
  // At least 128 random bits, in base64url.
  expect(linkId).toMatch(/^[A-Za-z0-9_-]{22,}$/);

  const file = await inBrowser(link as string);
  expect(file.status).toBe(200);
  expect((await file.text()).split("\n")[0]).toContain("property_name");
  expect((await inBrowser(link as string)).status).toBe(404);

  expect(relay.log.text).not.toContain(linkId);
  expect(relay.log.text).toContain("/api/downloads/[redacted]");
});

test("a browser link lapses within two minutes of being made", async () => {
  const jobId = await jobOf(me);
  const early = (await browserLink(me, jobId)).link as string;
  const late = (await browserLink(me, jobId)).link as string;
  // A browser that takes half a minute to start still gets the file.
  clockMs += 30_000;
  expect((await inBrowser(early)).status).toBe(200);
  clockMs += 90_000;
  expect((await inBrowser(late)).status).toBe(404);
});

test("only the job's owner can make a browser link, and only with their key", async () => {
  const jobId = await jobOf(me);
  const results = () => sandbox.counters.get("/v1/bulk_api/jobs/:job_id/results");
  const before = results();
  expect((await browserLink(colleague, jobId)).made.status).toBe(403);
  expect((await browserLink(undefined, jobId)).made.status).toBe(401);
  expect((await browserLink(me, "../accounts")).made.status).toBe(400);
  // Refused before the service was asked for the file.
  expect(results()).toBe(before);
});

test("a person's job list counts and pages their own jobs only", async () => {
  const pager = await relay.addUser("pager", [MINE]);
  const own = [await jobOf(pager), await jobOf(pager), await jobOf(pager)];
  await jobOf(colleague);
  const first = (await (await relay.api(pager, "/v1/bulk_api/jobs?page=1&per_page=2")).json()) as {
    jobs: { job_id: string }[];
    pagination: { total_count: number; total_pages: number; current_page: number };
  };
  const second = (await (
    await relay.api(pager, "/v1/bulk_api/jobs?page=2&per_page=2")
  ).json()) as typeof first;
  expect(first.pagination).toMatchObject({ total_count: 3, total_pages: 2, current_page: 1 });
  expect(first.jobs).toHaveLength(2);
  expect(second.jobs).toHaveLength(1);
  expect([...first.jobs, ...second.jobs].map((job) => job.job_id).sort()).toEqual([...own].sort());
});

test("a key with no accounts sees nothing", async () => {
  const nobody = await relay.addUser("nobody", []);
  const accounts = (await (await relay.api(nobody, "/v1/accounts")).json()) as { data: unknown[] };
  expect(accounts.data).toEqual([]);
  expect((await relay.api(nobody, "/v1/bulk_api/jobs")).status).toBe(403);
  const submitted = await relay.api(nobody, "/v1/bulk_api/jobs", {
    report_type: "property",
    output_format: "csv",
    start_date: "2026-10-01",
    end_date: "2026-10-01",
    property_ids: [1],
  });
  expect(submitted.status).toBe(403);
  expect((await relay.api(nobody, `/v1/accounts/${MINE}/comp_sets`)).status).toBe(403);
  const compSets = (await (await relay.api(me, `/v1/accounts/${MINE}/comp_sets`)).json()) as {
    data: { id: string }[];
  };
  expect((await relay.api(nobody, `/v1/comp_sets/${compSets.data[0]?.id}/units`)).status).toBe(403);
});

test("a job the relay has no owner for is for admins only", async () => {
  // Submitted at the service with the relay's own credentials, but not through the relay: nobody's job.
  const token = (await (
    await fetch(`${sandbox.url}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: RELAY_CLIENT.clientId,
        client_secret: RELAY_CLIENT.clientSecret,
      }),
    })
  ).json()) as { access_token: string };
  const submitted = await fetch(`${sandbox.url}/v1/bulk_api/jobs`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token.access_token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      report_type: "property",
      output_format: "csv",
      start_date: "2026-10-01",
      end_date: "2026-10-01",
      property_ids: [(sandbox.dataset().properties[0] as { id: number }).id],
    }),
  });
  const { job_id: jobId } = (await submitted.json()) as { job_id: string };
  expect((await relay.api(me, `/v1/bulk_api/jobs/${jobId}`)).status).toBe(403);
  const mine = (await (await relay.api(me, "/v1/bulk_api/jobs?per_page=100")).json()) as {
    jobs: { job_id: string }[];
  };
  expect(mine.jobs.map((job) => job.job_id)).not.toContain(jobId);
  const admin = await relay.addUser("ops", [], true);
  expect((await relay.api(admin, `/v1/bulk_api/jobs/${jobId}`)).status).toBe(200);
});
