/**
 * Every operation of the contract's table, asked through the relay in many spellings of its path and query,
 * for the person's own account (or job) and for another's. Each spelling is refused (400, 404, 405) or answered
 * exactly as the canonical spelling is: another's data never comes back, however the request is written.
 */
import { request as httpRequest } from "node:http";
import type { RunningSandbox } from "../../sandbox/server";
import { OPERATIONS, type OperationId } from "../../src/api/operations";
import { startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

const MINE = 100;
const THEIRS = 103;

interface Sample {
  method: string;
  /** Path below /api/v1, canonical. */
  path: string;
  query: string;
  body?: Record<string, unknown>;
}

interface Answer {
  status: number;
  text: string;
}

let sandbox: RunningSandbox;
let relay: TestRelay;
let me: string;
let them: string;

/** Sends the request target exactly as written: no URL parser tidies it first. */
function raw(method: string, target: string, key: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const sent = httpRequest(
      `${relay.url}/`,
      {
        method,
        headers: {
          Authorization: `Bearer ${key}`,
          ...(payload === undefined ? {} : { "Content-Type": "application/json" }),
        },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () =>
          resolve({ status: answer.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    sent.path = target;
    sent.on("error", reject);
    sent.end(payload);
  });
}

const target = (sample: Sample, prefix = "/api/v1") =>
  `${prefix}${sample.path}${sample.query ? `?${sample.query}` : ""}`;

/** Percent-encodes the character at `index` of `text`. */
const encodeAt = (text: string, index: number) =>
  `${text.slice(0, index)}%${text.charCodeAt(index).toString(16).toUpperCase()}${text.slice(index + 1)}`;

/** The many ways of writing one request that a careless router would read as the same or as another. */
function spellings(sample: Sample, ownAccount: number): string[] {
  const segments = sample.path.split("/");
  const lastLiteral = segments
    .map((segment, index) => ({ segment, index }))
    .filter(({ segment }) => /^[a-z_]+$/.test(segment));
  const numeric = segments
    .map((segment, index) => ({ segment, index }))
    .filter(({ segment }) => /^\d+$/.test(segment));
  const withSegments = (index: number, replacement: string) =>
    segments.map((segment, at) => (at === index ? replacement : segment)).join("/");
  const paths: string[] = [];
  for (const { segment, index } of lastLiteral) {
    paths.push(withSegments(index, encodeAt(segment, segment.length - 1))); // comp_set%73
    paths.push(
      withSegments(index, `${segment.slice(0, -1)}%25${segment.charCodeAt(segment.length - 1).toString(16)}`),
    ); // double
    paths.push(withSegments(index, segment.toUpperCase()));
    paths.push(withSegments(index, `${segment};x`));
  }
  for (const { segment, index } of numeric) {
    for (const spelled of [
      `${segment}.0`,
      `${segment}e0`,
      `%20${segment}`,
      `0${segment}`,
      `+${segment}`,
      `${segment};`,
      encodeAt(segment, 0),
      `${segment}%2F..%2F${ownAccount}`,
      `-${segment}`,
      `0x${Number(segment).toString(16)}`,
    ])
      paths.push(withSegments(index, spelled));
  }
  paths.push(sample.path.replace("/", "//"), sample.path.replace(/\/([^/]+)$/, "/./$1"), `${sample.path}/`);
  paths.push(`${sample.path}#`, sample.path.replace(/\/([^/]+)$/, "/x/../$1"));
  const targets = paths.map((path) => target({ ...sample, path }));

  const own = `account_id=${ownAccount}`;
  const queries = [
    `${sample.query ? `${sample.query}&` : ""}#&${own}`,
    `#&${own}${sample.query ? `&${sample.query}` : ""}`,
    `${sample.query}&${own}`,
    `${own}&${sample.query}`,
    sample.query.replace(/account_id=(\d+)/, "account_id=$1.0"),
    sample.query.replace(/account_id=(\d+)/, "account_id=$1e0"),
    sample.query.replace(/account_id=(\d+)/, "account_id=%20$1"),
    sample.query.replace(/account_id=(\d+)/, "account_id=+$1"),
    sample.query.replace(/account_id=(\d+)/, "account_id=0$1"),
    sample.query.replace(/account_id=(\d+)/, `account_id=$1;account_id=${ownAccount}`),
    sample.query.replace(/account_id=(\d+)/, `account_id=${ownAccount}&account_id=$1`),
    sample.query.replace(/account_id=(\d+)/, `account_id[]=$1&account_id=${ownAccount}`),
    sample.query.replace(/account_id=/, "account%5Fid="),
    sample.query.replace(/account_id=(\d+)/, (_, id: string) => `account_id=${encodeAt(id, 0)}`),
    sample.query.replace(/account_id=/, "ACCOUNT_ID="),
    `${sample.query}&unknown=1`,
  ];
  for (const query of queries) targets.push(`/api/v1${sample.path}?${query}`);
  targets.push(target(sample, "/%61pi/v1"), target(sample, "/api/v%31"), target(sample, "/api/v1/../v1"));
  targets.push(target(sample, "/api//v1"), target(sample, "/API/v1"));
  return [...new Set(targets)].filter((spelled) => spelled !== target(sample));
}

/** Request bodies spelled otherwise: the account as text, as a float, twice, nested. */
function bodySpellings(sample: Sample, ownAccount: number): Record<string, unknown>[] {
  if (!sample.body || !("account_id" in sample.body)) return [];
  const account = sample.body.account_id as number;
  return [
    { ...sample.body, account_id: String(account) },
    { ...sample.body, account_id: account + 0.5 },
    { ...sample.body, account_id: [account, ownAccount] },
    { ...sample.body, account_id: { id: account } },
    { ...sample.body, account_id: -account },
    { ...sample.body, account_id: 0 },
  ];
}

const REFUSED = [400, 404, 405];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  relay = await startTestRelay(sandbox);
  me = await relay.addUser("me", [MINE]);
  them = await relay.addUser("them", [THEIRS]);
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

async function compSetOf(key: string, account: number): Promise<number> {
  const answer = await raw("GET", `/api/v1/accounts/${account}/comp_sets`, key);
  return Number((JSON.parse(answer.text) as { data: { id: string }[] }).data[0]?.id);
}

/** A job of the person's, submitted and (unless `running`) waited for until it has succeeded. */
async function jobOf(key: string, propertyId: number): Promise<string> {
  const answer = await raw("POST", "/api/v1/bulk_api/jobs", key, {
    report_type: "property",
    output_format: "csv",
    start_date: "2026-10-01",
    end_date: "2026-10-01",
    property_ids: [propertyId],
  });
  const jobId = (JSON.parse(answer.text) as { job_id: string }).job_id;
  for (let poll = 0; poll < 600; poll++) {
    const job = JSON.parse((await raw("GET", `/api/v1/bulk_api/jobs/${jobId}`, key)).text) as {
      status: string;
    };
    if (job.status === "succeeded") return jobId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not succeed`);
}

/** A canonical request of each operation for `account` (and its comp set, property, market, job). */
function samples(ids: {
  account: number;
  compSet: number;
  property: number;
  market: number;
  job: string;
  cancelled: string;
}) {
  const { account, compSet, property, market, job, cancelled } = ids;
  const forecast = (field: string) => ({
    account_id: account,
    aggregations: [{ name: field, field, aggregation_type: "avg" }],
  });
  const table: Record<OperationId, Sample> = {
    listAccounts: { method: "GET", path: "/accounts", query: "page=1" },
    listCompSets: { method: "GET", path: `/accounts/${account}/comp_sets`, query: "" },
    getMarketSurvey: { method: "GET", path: `/comp_sets/${compSet}/market_survey`, query: "" },
    listCompSetUnits: {
      method: "GET",
      path: `/comp_sets/${compSet}/units`,
      query: "filter[bedroom_count]=1",
    },
    listCompSetFloorPlans: { method: "GET", path: `/comp_sets/${compSet}/floor_plans`, query: "" },
    searchGeoBoundaries: {
      method: "POST",
      path: "/geo_boundaries/search",
      query: "",
      body: { account_id: account, query: "Austin" },
    },
    searchProperties: {
      method: "POST",
      path: "/geo_boundaries/properties",
      query: "",
      body: { account_id: account, geo_boundary_ids: [market], per_page: 2 },
    },
    lookupProperties: {
      method: "GET",
      path: "/properties/lookup",
      query: `account_id=${account}&city=Austin`,
    },
    getBulkPropertyDetails: {
      method: "GET",
      path: "/properties/bulk_details",
      query: `account_id=${account}&property_ids=${property}`,
    },
    exploreMarkets: {
      method: "POST",
      path: "/explore_markets",
      query: "",
      body: { account_id: account, limit: 2 },
    },
    getMarketNarratives: {
      method: "GET",
      path: "/markets/narratives",
      query: `account_id=${account}&geo_boundary_id=${market}`,
    },
    getPropertyForecasts: {
      method: "POST",
      path: `/properties/${property}/forecasts`,
      query: "",
      body: forecast("rent_growth_rate_yoy"),
    },
    getGeoBoundaryForecasts: {
      method: "POST",
      path: `/geo_boundary/${market}/forecasts`,
      query: "",
      body: forecast("rent_growth_yoy"),
    },
    createBulkJob: {
      method: "POST",
      path: "/bulk_api/jobs",
      query: "",
      body: {
        report_type: "property",
        output_format: "csv",
        start_date: "2026-10-01",
        end_date: "2026-10-01",
        property_ids: [property],
      },
    },
    listBulkJobs: { method: "GET", path: "/bulk_api/jobs", query: "per_page=100" },
    getBulkJob: { method: "GET", path: `/bulk_api/jobs/${job}`, query: "" },
    cancelBulkJob: { method: "DELETE", path: `/bulk_api/jobs/${cancelled}`, query: "" },
    getBulkJobResults: { method: "GET", path: `/bulk_api/jobs/${job}/results`, query: "" },
  };
  return table;
}

/** Fields that differ between two identical asks by design: new ids and times of a new job or forecast. */
function comparable(operationId: OperationId, answer: Answer): string {
  if (operationId === "createBulkJob") return String(answer.status);
  if (operationId === "getBulkJobResults") return String(answer.status);
  return `${answer.status} ${answer.text.replace(/"(id|job_id|created_at|updated_at)":"[^"]*"/g, "")}`;
}

test("every operation, in every spelling, is refused or answered as its canonical spelling", async () => {
  const dataset = sandbox.dataset();
  const property = dataset.properties[0] as { id: number; msaId: number };
  const mine = samples({
    account: MINE,
    compSet: await compSetOf(me, MINE),
    property: property.id,
    market: property.msaId,
    job: await jobOf(me, property.id),
    cancelled: await jobOf(me, property.id),
  });
  const theirs = samples({
    account: THEIRS,
    compSet: await compSetOf(them, THEIRS),
    property: property.id,
    market: property.msaId,
    job: await jobOf(them, property.id),
    cancelled: await jobOf(them, property.id),
  });
  const failures: string[] = [];
  let asked = 0;
  for (const operation of OPERATIONS) {
    const id = operation.operationId;
    for (const [whose, sample] of [
      ["mine", mine[id]],
      ["theirs", theirs[id]],
    ] as const) {
      expect(sample.method).toBe(operation.method);
      const canonical = await raw(sample.method, target(sample), me, sample.body);
      // The canonical spelling itself: the person's own is answered, another's refused.
      const ownList = operation.reach.kind === "own_accounts" || operation.reach.kind === "own_jobs";
      if (whose === "mine" || ownList) {
        // Answered by the service (a job that has already finished may answer 409), not refused by the relay.
        if ([...REFUSED, 403].includes(canonical.status))
          failures.push(`${id} (${whose}) canonical answered ${canonical.status}: ${canonical.text}`);
      } else if (canonical.status !== 403)
        failures.push(`${id} (${whose}) canonical answered ${canonical.status}, not 403`);
      // Asked again: what a repeat gets (a cancelled job stays cancelled), which every spelling must match.
      const expected = comparable(id, await raw(sample.method, target(sample), me, sample.body));
      const asks = [
        ...spellings(sample, MINE).map((spelled) => ({ spelled, body: sample.body })),
        ...bodySpellings(sample, MINE).map((body) => ({ spelled: target(sample), body })),
      ];
      for (const { spelled, body } of asks) {
        asked += 1;
        const answer = await raw(sample.method, spelled, me, body);
        if (REFUSED.includes(answer.status)) continue;
        if (comparable(id, answer) !== expected)
          failures.push(
            `${id} (${whose}) ${sample.method} ${spelled} ${JSON.stringify(body ?? "")} -> ${answer.status} ${answer.text.slice(0, 120)}`,
          );
      }
    }
  }
  expect(asked).toBeGreaterThan(OPERATIONS.length * 30);
  expect(failures).toEqual([]);
}, 300_000);
