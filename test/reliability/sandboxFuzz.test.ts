/**
 * Fuzzing every operation of the sandbox's contract with malformed and hostile input (path segments, query
 * strings, JSON and raw bodies, content types, Authorization headers): the answer is never a 5xx, never a
 * dropped connection, never a stack trace or a file path, JSON when it says JSON; and afterwards the sandbox
 * still serves and nothing polluted Object.prototype.
 */
import fc from "fast-check";
import { contractOperations, type ContractOperation } from "../../sandbox/contract/operations";
import { compSetsOf } from "../../sandbox/data/compSets";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import {
  hostileAuthorization,
  hostileContentType,
  hostileJson,
  hostileQuery,
  hostileRawBody,
  hostileSegment,
} from "./support/hostileInput";

const CALLER = { clientId: "demo-proplus", clientSecret: "sandbox-secret-proplus", accountId: 103 };
/** What an internal error leaks when it reaches a response: stack frames and file paths. */
const INTERNALS = /\n\s+at |node_modules|\/work\/|sandbox\/(routes|http|data)|\.ts:\d+/;

let sandbox: RunningSandbox;
let token: string;
let validSegments: Record<string, string>;
const operations = contractOperations();
const dataOperations = operations.filter((operation) => operation.requiresAuth);
const bodyOperations = operations.filter((operation) => operation.requestBody !== undefined);

interface Probe {
  method: string;
  path: string;
  query?: string;
  body?: string;
  contentType?: string;
  authorization?: string | null;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

async function send(probe: Probe): Promise<Answer> {
  const headers: Record<string, string> = {};
  const authorization = probe.authorization === undefined ? `Bearer ${token}` : probe.authorization;
  if (authorization !== null) headers.authorization = authorization;
  if (probe.contentType !== undefined && probe.body !== undefined)
    headers["content-type"] = probe.contentType;
  const url = `${sandbox.url}${probe.path}${probe.query ? `?${probe.query}` : ""}`;
  const response = await fetch(url, { method: probe.method, headers, body: probe.body, redirect: "manual" });
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    text: await response.text(),
  };
}

/** The safety every answer must have, whatever was sent. */
function expectSafe(answer: Answer, probe: Probe): void {
  const where = `${probe.method} ${probe.path}?${probe.query ?? ""}`.slice(0, 300);
  expect({ where, status: answer.status < 500 }).toEqual({ where, status: true });
  expect({ where, leaksInternals: INTERNALS.test(answer.text) }).toEqual({ where, leaksInternals: false });
  if (answer.contentType.includes("json") && answer.text !== "") {
    expect(() => JSON.parse(answer.text)).not.toThrow();
  }
}

function pathWith(operation: ContractOperation, segments: Record<string, string> = {}): string {
  return operation.routePath.replace(
    /:([A-Za-z_]+)/g,
    (_, name: string) => segments[name] ?? validSegments[name] ?? "1",
  );
}

function bodyNames(operation: ContractOperation): string[] {
  const schema = operation.requestBody?.schemas["application/json"] as { properties?: object } | undefined;
  return Object.keys(schema?.properties ?? {});
}

const queryNames = (operation: ContractOperation) =>
  operation.parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name);

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    rateLimit: 1_000_000_000,
    bulkExportQuota: Number.MAX_SAFE_INTEGER,
    jobStartDelayMs: 3_600_000,
  });
  const tokenAnswer = await fetch(`${sandbox.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: CALLER.clientId,
      client_secret: CALLER.clientSecret,
    }),
  });
  token = ((await tokenAnswer.json()) as { access_token: string }).access_token;
  const job = await send({
    method: "POST",
    path: "/v1/bulk_api/jobs",
    contentType: "application/json",
    body: JSON.stringify({
      report_type: "property",
      output_format: "csv",
      property_ids: [100001],
      start_date: "2026-03-01",
      end_date: "2026-03-01",
    }),
  });
  const dataset = sandbox.context.dataset();
  validSegments = {
    account_id: String(CALLER.accountId),
    property_id: String(dataset.properties[0]?.id),
    geo_boundary_id: String(dataset.geography.boundaries.find((boundary) => boundary.geoType === "MSA")?.id),
    comp_set_id: String(compSetsOf(dataset).find((compSet) => compSet.accountId === CALLER.accountId)?.id),
    job_id: (JSON.parse(job.text) as { job_id: string }).job_id,
  };
});

afterAll(async () => {
  await sandbox.close();
});

it("covers every contract operation", () => {
  expect(dataOperations.length).toBeGreaterThanOrEqual(15);
  expect(bodyOperations.map((operation) => operation.operationId)).toContain("createBulkJob");
});

it("answers hostile path segments safely", async () => {
  const withSegments = operations.filter((operation) => operation.routePath.includes(":"));
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...withSegments), hostileSegment, async (operation, segment) => {
      const [name = ""] = /:([A-Za-z_]+)/.exec(operation.routePath)?.slice(1) ?? [];
      const probe = { method: operation.method, path: pathWith(operation, { [name]: segment }) };
      expectSafe(await send(probe), probe);
    }),
    { numRuns: 250 },
  );
});

it("answers hostile query strings safely", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc
        .constantFrom(...operations)
        .chain((operation) => fc.tuple(fc.constant(operation), hostileQuery(queryNames(operation)))),
      async ([operation, query]) => {
        const probe = { method: operation.method, path: pathWith(operation), query };
        expectSafe(await send(probe), probe);
      },
    ),
    { numRuns: 300 },
  );
});

it("answers hostile JSON bodies safely", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc
        .constantFrom(...bodyOperations)
        .chain((operation) => fc.tuple(fc.constant(operation), hostileJson(bodyNames(operation)))),
      async ([operation, json]) => {
        const probe = {
          method: operation.method,
          path: pathWith(operation),
          contentType: "application/json",
          body: JSON.stringify(json),
        };
        expectSafe(await send(probe), probe);
      },
    ),
    { numRuns: 300 },
  );
});

it("answers malformed raw bodies under any content type safely", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...bodyOperations),
      hostileRawBody,
      hostileContentType,
      async (operation, body, contentType) => {
        const probe = { method: operation.method, path: pathWith(operation), contentType, body: body.text };
        expectSafe(await send(probe), probe);
      },
    ),
    { numRuns: 150 },
  );
});

it("answers a missing, malformed or unknown bearer token with 401 on every data operation", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...dataOperations),
      fc.option(hostileAuthorization, { nil: null }),
      async (operation, authorization) => {
        const probe = { method: operation.method, path: pathWith(operation), authorization };
        const answer = await send(probe);
        expectSafe(answer, probe);
        expect({ path: probe.path, authorization, status: answer.status }).toEqual({
          path: probe.path,
          authorization,
          status: 401,
        });
      },
    ),
    { numRuns: 150 },
  );
});

it("answers hostile token requests and unknown methods safely", async () => {
  await fc.assert(
    fc.asyncProperty(
      hostileJson(["grant_type", "client_id", "client_secret"]),
      hostileContentType,
      async (json, contentType) => {
        const probe = {
          method: "POST",
          path: "/oauth/token",
          contentType,
          body: JSON.stringify(json),
          authorization: null,
        };
        const answer = await send(probe);
        expectSafe(answer, probe);
        expect(answer.status).not.toBe(200);
      },
    ),
    { numRuns: 100 },
  );
  for (const operation of operations) {
    for (const method of ["PUT", "PATCH"]) {
      const probe = { method, path: pathWith(operation) };
      expectSafe(await send(probe), probe);
    }
  }
});

it("still serves afterwards, and no input polluted Object.prototype", async () => {
  const probe = { method: "GET", path: "/v1/accounts" };
  const answer = await send(probe);
  expect(answer.status).toBe(200);
  expect(Object.prototype).not.toHaveProperty("polluted");
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});
