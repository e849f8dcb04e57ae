/**
 * What the relay decides about a request on its way to the service (whether identical ones share an answer,
 * whose quota it spends, whom a batched call serves, what it is counted as) comes from the table of
 * operations, so no spelling of the same path changes it. Every operation of the table, each spelled many ways.
 */
import { OPERATIONS, type Operation } from "../../src/api/operations";
import { exploreMarketsBody } from "../../src/data/batchedEndpoints";
import { sentOperation, sentOperationId } from "../../src/api/sentOperation";
import { carried } from "../../relay/upstream/interests";
import { quotaBoundAccount } from "../../relay/upstream/quotaStops";
import { sharesAnswer } from "../../relay/upstream/upstreamFetch";

/** Service URLs as a relay may be given them: at the root, and below a path that itself holds `/v1/`. */
const API_BASES = ["http://127.0.0.1:9/v1", "https://service.example/v1/gateway/v1"];

const JOB_ID = "7eefcd2a-d515-4e46-bb0b-0a74a4fefcca";

/** A valid value of each path parameter, by name (the contract's types decide what is valid). */
function pathValue(operation: Operation, name: string): string {
  const parameter = operation.parameters.find((p) => p.name === name && p.in === "path");
  return parameter?.format === "uuid" || name === "job_id" ? JOB_ID : "10301";
}

/** What a batched row sends beside the required parameters (any other request is forwarded as it is). */
const forecastOf = (field: string) => ({
  account_id: 100,
  aggregations: [{ name: `${field}:avg`, field, aggregation_type: "avg" }],
});
const BATCHED: Record<string, { query?: string; body?: object }> = {
  getBulkPropertyDetails: { query: "property_ids=10301,10302" },
  exploreMarkets: { body: exploreMarketsBody(100, {}, [10301]) },
  getPropertyForecasts: { body: forecastOf("occupancy_percent") },
  getGeoBoundaryForecasts: { body: forecastOf("occupancy") },
};

/** The canonical request of an operation: its path filled in, its required query, a body with what it needs. */
function canonical(operation: Operation) {
  const segments = operation.path
    .split("/")
    .slice(1)
    .map((part) => (part.startsWith("{") ? pathValue(operation, part.slice(1, -1)) : part));
  const query = operation.parameters
    .filter((parameter) => parameter.in === "query" && parameter.required)
    .map((parameter) => `${parameter.name}=${parameter.name === "account_id" ? 100 : 42}`)
    .concat(BATCHED[operation.operationId]?.query ?? [])
    .join("&");
  const batched = BATCHED[operation.operationId]?.body;
  const body = batched
    ? JSON.stringify(batched)
    : operation.body
      ? JSON.stringify(
          Object.fromEntries(
            operation.body.requiredProperties.map((name) => [name, name === "account_id" ? 100 : [1]]),
          ),
        )
      : undefined;
  return { segments, query: query === "" ? "" : `?${query}`, body };
}

const percent = (character: string, lower = false) => {
  const hex = character.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0");
  return `%${lower ? hex.toLowerCase() : hex}`;
};

/** Ways to write the same path below the API base, each one segment list in, one path out. */
const SPELLINGS: Record<string, (segments: string[]) => string> = {
  "as written": (segments) => `/${segments.join("/")}`,
  "first letter percent-encoded": (segments) =>
    `/${segments.map((segment) => percent(segment[0] as string) + segment.slice(1)).join("/")}`,
  "every character percent-encoded, lower-case hex": (segments) =>
    `/${segments.map((segment) => [...segment].map((c) => percent(c, true)).join("")).join("/")}`,
  "underscores and digits percent-encoded": (segments) =>
    `/${segments.map((segment) => segment.replace(/[_0-9]/g, (c) => percent(c))).join("/")}`,
  "double slashes": (segments) => `//${segments.join("//")}`,
  "trailing slash": (segments) => `/${segments.join("/")}/`,
  "upper case words": (segments) =>
    `/${segments.map((segment) => (/^[a-z_]+$/.test(segment) ? segment.toUpperCase() : segment)).join("/")}`,
  "mixed case, encoded, doubled and trailing": (segments) =>
    `//${segments
      .map((segment) =>
        /^[a-z_]+$/.test(segment) ? percent(segment[0] as string) + segment.slice(1).toUpperCase() : segment,
      )
      .join("//")}//`,
};

/** Every decision taken about a sent request, as one comparable value. */
function decisions(method: string, url: URL, apiBase: string, body?: string) {
  const sent = sentOperation(method, url, apiBase, body);
  return {
    operation: sent?.operation.operationId,
    counted: sentOperationId(method, url, apiBase),
    shared: sharesAnswer(sent),
    quotaAccount: quotaBoundAccount(sent),
    serves: carried(sent),
  };
}

describe.each(API_BASES)("below %s", (apiBase) => {
  test.each(OPERATIONS.map((operation) => [operation.operationId, operation] as const))(
    "%s: every spelling of its path is decided as the canonical one",
    (operationId, operation) => {
      const { segments, query, body } = canonical(operation);
      const expected = decisions(
        operation.method,
        new URL(`${apiBase}${SPELLINGS["as written"]!(segments)}${query}`),
        apiBase,
        body,
      );
      // The canonical request is the operation, and the table's word on sharing holds.
      expect(expected.operation).toBe(operationId);
      expect(expected.counted).toBe(operationId);
      expect(expected.shared).toBe(operation.cacheKind !== undefined);
      expect(expected.quotaAccount).toBe(operation.spendsPropertyQuota ? 100 : undefined);
      expect(expected.serves?.family).toEqual(operation.batch ? expect.stringMatching(/ 100$/) : undefined);
      for (const [name, spell] of Object.entries(SPELLINGS)) {
        const url = new URL(`${apiBase}${spell(segments)}${query}`);
        expect({ spelling: name, ...decisions(operation.method, url, apiBase, body) }).toEqual({
          spelling: name,
          ...expected,
        });
      }
    },
  );
});

test("reads share an answer; job submissions, cancellations, job reads and downloads never do", () => {
  const shared = (operationId: string) =>
    (OPERATIONS.find((operation) => operation.operationId === operationId) as Operation).shareable;
  for (const read of ["listCompSets", "getBulkPropertyDetails", "exploreMarkets", "getPropertyForecasts"])
    expect(shared(read)).toBe(true);
  for (const job of ["createBulkJob", "cancelBulkJob", "getBulkJob", "listBulkJobs", "getBulkJobResults"])
    expect(shared(job)).toBe(false);
});

test("what is not an operation of the table is sent as its sender's own and counted as other", () => {
  const apiBase = API_BASES[0] as string;
  for (const [method, url] of [
    ["POST", "http://127.0.0.1:9/oauth/token"],
    ["GET", "http://127.0.0.1:9/v1/bulk_api/jobs/not-a-uuid"],
    ["GET", "http://127.0.0.1:9/v1/accounts/100.0/comp_sets"],
    ["GET", "http://127.0.0.1:9/v2/accounts"],
    ["GET", "https://downloads.example/v1/accounts"],
    ["PUT", "http://127.0.0.1:9/v1/accounts"],
  ] as const) {
    const sent = sentOperation(method, new URL(url), apiBase);
    expect({ url, sent, shared: sharesAnswer(sent) }).toEqual({ url, sent: undefined, shared: false });
  }
});
