import { spawn } from "node:child_process";
import path from "node:path";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../sandbox/server";
import {
  CHECK_REQUEST_LIMIT,
  checkConnection,
  reportLines,
  type ConnectionReport,
  type ProbeReport,
} from "../../src/api/connectionCheck";
import { rawService } from "../support/rawService";

const SECRET = "sandbox-secret-pro";
const FAMILIES = [
  "Token",
  "Accounts",
  "Comp sets",
  "Market survey",
  "Units",
  "Floor plans",
  "Geo search",
  "Explore markets",
  "Narratives",
  "Property lookup",
  "Property bulk details",
  "Forecasts",
  "Bulk jobs",
];

const running: RunningSandbox[] = [];
afterAll(() => Promise.all(running.map((sandbox) => sandbox.close())));

async function sandboxWith(options: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, propertyCount: 500, rateLimit: 1_000, ...options });
  running.push(sandbox);
  return sandbox;
}

function check(
  sandbox: RunningSandbox,
  fetchImpl?: typeof fetch,
  secret = SECRET,
): Promise<ConnectionReport> {
  return checkConnection({
    config: { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
    credentials: { kind: "client", clientId: "demo-pro", clientSecret: secret },
    fetch: fetchImpl,
  });
}

function probe(report: ConnectionReport, family: string): ProbeReport {
  const found = report.probes.find((candidate) => candidate.family === family);
  if (!found) throw new Error(`No probe of ${family} in ${JSON.stringify(report.probes)}`);
  return found;
}

/** Rewrites answers on the way in: a service that answers in the live shapes instead of the sandbox's. */
function answeringInLiveShapes(): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!response.ok || !/market_survey|floor_plans/.test(url.pathname)) return response;
    const json = (await response.json()) as { data: { attributes: Record<string, unknown> } };
    const attributes = json.data.attributes;
    if (Array.isArray(attributes.market_survey_items)) {
      attributes.market_survey_items = attributes.market_survey_items.map(
        ({ property_id: id, leased_percent: leased, ...rest }: Record<string, unknown>) => ({
          id,
          leased_percent: (leased as number) / 100,
          ...rest,
          advertised_occupancy_percent: 0.95,
          amenities: { "Stainless Steel Appliances": true },
        }),
      );
    }
    if (attributes.floor_plans_by_bed_bath) {
      attributes.floor_plans_by_bed = (attributes.floor_plans_by_bed_bath as Record<string, unknown>[]).map(
        (bucket) => ({ ...bucket, floor_plan_summary: {} }),
      );
      delete attributes.floor_plans_by_bed_bath;
    }
    return new Response(JSON.stringify(json), { status: 200, headers: response.headers });
  };
}

describe("the connection check against the sandbox", () => {
  it("asks each endpoint family once, within its request limit, and reports every one answered", async () => {
    const sandbox = await sandboxWith();

    const report = await check(sandbox);

    expect(report.probes.map((p) => p.family)).toEqual(FAMILIES);
    expect(report.probes.map((p) => `${p.family}: ${p.outcome}`)).toEqual(
      FAMILIES.map((family) => `${family}: answered`),
    );
    // The sandbox counts what arrived: exactly what the check says it sent, under the limit it announces.
    expect(sandbox.counters.total()).toBe(report.requestsSent);
    expect(report.requestsSent).toBe(13);
    expect(report.requestsSent).toBeLessThanOrEqual(CHECK_REQUEST_LIMIT);
    expect(reportLines(report).at(-1)).toBe("Every endpoint family that was asked answered.");
  });

  it("names the shape variants the service used, read from its raw answers", async () => {
    const sandbox = await sandboxWith();
    const raw = await rawService(sandbox.url, "demo-pro", SECRET);
    const survey = await raw.get<{
      data: { attributes: { market_survey_items: Record<string, unknown>[] } };
    }>("/comp_sets/10001/market_survey");
    const floorPlans = await raw.get<{ data: { attributes: Record<string, unknown> } }>(
      "/comp_sets/10001/floor_plans",
    );
    const item = survey.data.attributes.market_survey_items[0] ?? {};
    const leased = survey.data.attributes.market_survey_items.map((entry) => entry.leased_percent as number);

    const report = await check(sandbox);

    expect(probe(report, "Market survey").variants).toEqual(
      expect.arrayContaining([
        `survey item id: ${"id" in item ? "id" : "property_id"}`,
        leased.some((value) => value > 1) ? "percent: points (97 = 97 %)" : "percent: fraction (0.97 = 97 %)",
      ]),
    );
    const bucketKey =
      "floor_plans_by_bed_bath" in floorPlans.data.attributes
        ? "floor_plans_by_bed_bath"
        : "floor_plans_by_bed";
    expect(probe(report, "Floor plans").variants).toContain(`floor plan buckets: ${bucketKey}`);
    expect(probe(report, "Accounts").variants).toContain("pagination: present (total_pages 2)");
    expect(probe(report, "Units").variants).toContain("pagination: absent");
    expect(probe(report, "Bulk jobs").variants).toContain("job list: jobs");
  });

  it("reads the live shapes as well: survey item id, fraction percents, floor_plans_by_bed with summaries", async () => {
    const sandbox = await sandboxWith();

    const report = await check(sandbox, answeringInLiveShapes());

    expect(probe(report, "Market survey").variants).toEqual(
      expect.arrayContaining(["survey item id: id", "amenities: object", "percent: fraction (0.97 = 97 %)"]),
    );
    expect(probe(report, "Floor plans").variants).toEqual(
      expect.arrayContaining([
        "floor plan buckets: floor_plans_by_bed",
        "bucket summary: floor_plan_summary per bucket",
      ]),
    );
    // The property id came from the survey's `id`: the property families still ran on it.
    expect(probe(report, "Property bulk details").outcome).toBe("answered");
    expect(probe(report, "Units").request).toMatch(/filter\[property_ids\]=\d+/);
  });

  it("names how history points are dated and how rent changes are written, as live code saw and as the vendor's examples show", async () => {
    const seen = await check(await sandboxWith());
    expect(probe(seen, "Floor plans").variants).toContain("history dates: days");
    expect(probe(seen, "Units").variants).toEqual(
      expect.arrayContaining([expect.stringMatching(/^rent change: text \([+-]\d+\.\d{2}\)$/)]),
    );
    const documented = await check(await sandboxWith({ variant: "examples" }));
    expect(probe(documented, "Floor plans").variants).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^history dates: timestamps \(\d{4}-\d{2}-\d{2}T23:59:59\.999Z\)$/),
      ]),
    );
    expect(probe(documented, "Units").variants).toEqual(
      expect.arrayContaining([expect.stringMatching(/^rent change: text \(-?\$\d+\)$/)]),
    );
  });

  it("against a service whose body field changed, names the failing endpoint and gives the service's message", async () => {
    const sandbox = await sandboxWith({
      renamedBodyFields: [{ operationId: "searchGeoBoundaries", from: "query", to: "q" }],
    });

    const report = await check(sandbox);

    expect(probe(report, "Geo search")).toMatchObject({
      outcome: "refused",
      status: 400,
      request: "POST /v1/geo_boundaries/search",
      message: "Unknown parameter: query",
    });
    expect(report.probes.filter((p) => p.outcome !== "answered").map((p) => p.family)).toEqual([
      "Geo search",
    ]);
    // Narratives still ran: explore markets gave a boundary id instead.
    expect(probe(report, "Narratives").outcome).toBe("answered");
    expect(reportLines(report)).toContain("Failed: Geo search.");
    expect(reportLines(report).join("\n")).toMatch(
      /FAILED 400 Geo search \(POST \/v1\/geo_boundaries\/search\) - the service said: "Unknown parameter: query"/,
    );
  });

  it("reports the rate-limit headers that came back, and the 429's own text", async () => {
    const sandbox = await sandboxWith({ rateLimit: 5, rateLimitWindowSeconds: 300 });

    const report = await check(sandbox);

    // Five data requests per token: the sixth (geo search, after accounts, comp sets and the three comp set
    // families) is the first refused.
    const limited = probe(report, "Geo search");
    expect(report.probes.find((p) => p.status === 429)).toBe(limited);
    expect(limited).toMatchObject({ outcome: "refused", status: 429 });
    expect(limited.message).toMatch(/rate limit/i);
    expect(Object.keys(limited.rateLimitHeaders).map((name) => name.toLowerCase())).toEqual(
      expect.arrayContaining(["x-ratelimit-limit", "retry-after"]),
    );
    expect(limited.rateLimitHeaders["x-ratelimit-limit"]).toBe("5");
    expect(report.requestsSent).toBeLessThanOrEqual(CHECK_REQUEST_LIMIT);
    expect(sandbox.counters.total()).toBe(report.requestsSent);
  });

  it("with a refused secret, says so, asks nothing else, and never repeats the secret", async () => {
    const sandbox = await sandboxWith();
    const wrong = "not-the-secret-4711";

    const report = await check(sandbox, undefined, wrong);

    expect(probe(report, "Token")).toMatchObject({ outcome: "refused", status: 401 });
    expect(report.requestsSent).toBe(1);
    expect(report.probes.slice(1).every((p) => p.outcome === "skipped")).toBe(true);
    expect(JSON.stringify(report)).not.toContain(wrong);
    expect(reportLines(report).join("\n")).not.toContain(wrong);
  });

  it("with an access token, sends no token request; against a closed port, reports no answer", async () => {
    const sandbox = await sandboxWith();
    const { token } = await rawService(sandbox.url, "demo-pro", SECRET);
    sandbox.counters.reset();

    const withToken = await checkConnection({
      config: { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
      credentials: { kind: "manual", accessToken: token },
    });
    expect(probe(withToken, "Token").outcome).toBe("skipped");
    expect(withToken.requestsSent).toBe(12);
    expect(sandbox.counters.total()).toBe(12);
    expect(JSON.stringify(withToken)).not.toContain(token);

    const closed = await sandboxWith();
    const closedUrl = closed.url;
    await closed.close();
    running.splice(running.indexOf(closed), 1);
    const unreachable = await checkConnection({
      config: { serviceUrl: closedUrl, tokenUrl: `${closedUrl}/oauth/token` },
      credentials: { kind: "client", clientId: "demo-pro", clientSecret: SECRET },
    });
    expect(probe(unreachable, "Token")).toMatchObject({ outcome: "unreachable" });
    expect(probe(unreachable, "Token").message).toMatch(/no answer/);
    expect(unreachable.requestsSent).toBe(1);

    // A browser tells a refused cross-origin read and a wrong URL apart no better than this.
    const refusedByBrowser = await checkConnection({
      config: { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
      credentials: { kind: "manual", accessToken: token },
      fetch: () => Promise.reject(new TypeError("Failed to fetch")),
    });
    expect(probe(refusedByBrowser, "Accounts").message).toBe(
      "no answer (Failed to fetch): the URL may be wrong, the service down, or it may not allow this page's origin (CORS)",
    );
  });
});

const ROOT = path.resolve(__dirname, "../..");

/**
 * Runs `npm run check-service -- <args>` as a person would, with its own environment: the script under tsx's
 * loader, in node itself rather than through the tsx command, which only starts a second node to do the same.
 */
function runScript(
  args: string[],
  environment: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/check-service.ts", ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...environment },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run check-service", () => {
  it("says its request limit first, prints one line per family, and exits 0 when all answered", async () => {
    const sandbox = await sandboxWith();

    const run = await runScript(["--url", sandbox.url, "--client-id", "demo-pro"], {
      RENT_CLIENT_SECRET: SECRET,
    });

    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toBe(
      `Checking ${sandbox.url}: one small request per endpoint family, at most 15 requests in all.`,
    );
    expect(lines.slice(1, 14).map((line) => /^ok 200 +(.+?) \(/.exec(line)?.[1])).toEqual(FAMILIES);
    expect(lines.at(-2)).toBe(`13 of at most 15 requests sent to ${sandbox.url}.`);
    expect(run.code).toBe(0);
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    expect(sandbox.counters.total()).toBe(13);
  }, 60_000);

  it("against a changed body field name, names the endpoint and the service's message, and exits 1", async () => {
    const sandbox = await sandboxWith({
      renamedBodyFields: [{ operationId: "searchGeoBoundaries", from: "query", to: "q" }],
    });

    const run = await runScript(
      ["--url", sandbox.url, "--token-url", `${sandbox.url}/oauth/token`, "--client-id", "demo-pro"],
      { RENT_CLIENT_SECRET: SECRET },
    );

    expect(run.stdout).toContain(
      'FAILED 400 Geo search (POST /v1/geo_boundaries/search) - the service said: "Unknown parameter: query"',
    );
    expect(run.stdout.trim().split("\n").at(-1)).toBe("Failed: Geo search.");
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
  }, 60_000);

  it("with --json, prints the report as JSON and nothing else", async () => {
    const sandbox = await sandboxWith();

    const run = await runScript(["--url", sandbox.url, "--json"], {
      RENT_CLIENT_ID: "demo-pro",
      RENT_CLIENT_SECRET: SECRET,
    });

    const report = JSON.parse(run.stdout) as ConnectionReport;
    expect(report).toMatchObject({ serviceUrl: sandbox.url, requestLimit: 15, requestsSent: 13 });
    expect(report.probes.map((p) => p.family)).toEqual(FAMILIES);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(SECRET);
  }, 60_000);

  it("without a secret, says where to put it and sends nothing", async () => {
    const sandbox = await sandboxWith();

    const run = await runScript(["--url", sandbox.url, "--client-id", "demo-pro"], {});

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/No client secret: set RENT_CLIENT_SECRET/);
    expect(sandbox.counters.total()).toBe(0);
  }, 60_000);
});
