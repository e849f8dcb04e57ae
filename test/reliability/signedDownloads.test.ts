/**
 * Signed download URLs of export jobs: a link is honoured only as signed (job, file, expiry and signature
 * all unchanged) and only until it expires. Tampering is generated with fast-check: any link that the
 * download server accepts must still name exactly what was signed, and no link gets a 5xx.
 */
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { startTestSandbox, type TestSandbox } from "../sandbox/support/fixtures";

let t: TestSandbox;
let link: string;
let signed: SignedParts;
let expectedBody: string;

interface SignedParts {
  jobId: string;
  fileName: string;
  expires: number;
  signature: string;
}

/** What the download server reads from a link: path segments decoded, expiry as a number. */
function partsOf(url: string): SignedParts | undefined {
  const parsed = new URL(url);
  const match = /^\/download\/([^/]+)\/([^/]+)$/.exec(parsed.pathname);
  if (!match) return undefined;
  try {
    return {
      jobId: decodeURIComponent(match[1] ?? ""),
      fileName: decodeURIComponent(match[2] ?? ""),
      expires: Number(parsed.searchParams.get("expires")),
      signature: parsed.searchParams.getAll("signature").join(","),
    };
  } catch {
    return undefined;
  }
}

function linkFor(parts: SignedParts): string {
  const path = `/download/${encodeURIComponent(parts.jobId)}/${encodeURIComponent(parts.fileName)}`;
  return `${t.sandbox.downloadUrl}${path}?expires=${parts.expires}&signature=${parts.signature}`;
}

async function submitAndFinish(clientId: string): Promise<string> {
  const created = await t.client.as<{ job_id: string }>(clientId, "POST", "/v1/bulk_api/jobs", {
    json: {
      report_type: "property",
      output_format: "csv",
      property_ids: [100001, 100002],
      start_date: "2026-03-01",
      end_date: "2026-03-02",
    },
  });
  await t.sandbox.context.worker.flush();
  const results = await t.client.as(clientId, "GET", `/v1/bulk_api/jobs/${created.body.job_id}/results`);
  expect(results.status).toBe(302);
  return results.headers.get("location") ?? "";
}

beforeAll(async () => {
  t = await startTestSandbox({ rateLimit: 1_000_000, jobStartDelayMs: 0 });
  link = await submitAndFinish("demo-pro");
  signed = partsOf(link) as SignedParts;
  const response = await fetch(link);
  expect(response.status).toBe(200);
  expectedBody = await response.text();
});

afterAll(async () => {
  await t.sandbox.close();
});

it("refuses a link with any part changed: job, file, expiry or signature", async () => {
  const changed = fc.oneof(
    fc.string({ minLength: 1 }).map((jobId) => ({ ...signed, jobId })),
    fc.string({ minLength: 1 }).map((fileName) => ({ ...signed, fileName })),
    fc.integer({ min: 1, max: 4_000_000_000 }).map((expires) => ({ ...signed, expires })),
    fc
      .string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 })
      .map((signature) => ({ ...signed, signature })),
  );
  await fc.assert(
    fc.asyncProperty(changed, async (parts) => {
      fc.pre(JSON.stringify(parts) !== JSON.stringify(signed));
      const response = await fetch(linkFor(parts));
      await response.arrayBuffer();
      expect([400, 403, 404]).toContain(response.status);
    }),
    { numRuns: 150 },
  );
});

it("serves a character-level mutation of a link exactly when it still names what was signed, and refuses the rest", async () => {
  const mutation = fc.record({
    at: fc.nat({ max: link.length - 1 }),
    remove: fc.integer({ min: 0, max: 3 }),
    insert: fc.string({ maxLength: 3 }),
  });
  const query = link.indexOf("?");
  // Mutations that change how the link is written but not what it names: each must still be served.
  const sameMeaning = [
    { at: link.indexOf("&signature="), remove: 0, insert: "&" }, // an empty parameter between the two
    { at: link.length, remove: 0, insert: "&x" }, // a parameter the server does not read
    { at: query + 1, remove: 0, insert: "&" }, // an empty parameter first
  ];
  let served = 0;
  await fc.assert(
    fc.asyncProperty(mutation, async ({ at, remove, insert }) => {
      const mutated = link.slice(0, at) + insert + link.slice(at + remove);
      fc.pre(mutated !== link && URL.canParse(mutated));
      const parsed = new URL(mutated);
      fc.pre(parsed.origin === new URL(link).origin);
      // fetch itself refuses a URL with credentials ("http:/ @host/..." parses as user " "): no request is made.
      fc.pre(parsed.username === "" && parsed.password === "");
      const response = await fetch(mutated);
      const body = await response.text();
      if (isDeepStrictEqual(partsOf(mutated), signed)) {
        expect({ status: response.status, body }).toEqual({ status: 200, body: expectedBody });
        served += 1;
      } else {
        // Refused as the client's fault (a path segment too long for the router is a 414): never served, never a 5xx.
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
      }
    }),
    { numRuns: 300, examples: sameMeaning.map((example) => [example]) },
  );
  // The examples ran, so the served branch was taken at least as often as there are examples.
  expect(served).toBeGreaterThanOrEqual(sameMeaning.length);
});

it("refuses one job's signature on another job's file", async () => {
  const other = partsOf(await submitAndFinish("demo-proplus")) as SignedParts;
  expect((await fetch(linkFor({ ...other, signature: signed.signature }))).status).toBe(403);
  expect((await fetch(linkFor({ ...signed, signature: other.signature }))).status).toBe(403);
  expect((await fetch(linkFor(other))).status).toBe(200);
});

it("refuses a correctly signed link once it has expired", async () => {
  const past = t.sandbox.clock.nowSeconds() - 1;
  const expiredPath = t.sandbox.context.signer.signedPath(signed.jobId, signed.fileName, past);
  const response = await fetch(`${t.sandbox.downloadUrl}${expiredPath}`);
  expect(response.status).toBe(403);
  expect(await response.text()).not.toContain(expectedBody.slice(0, 40));
});

it("stops honouring the issued link after its 7 days", async () => {
  const start = t.sandbox.clock.now();
  try {
    t.sandbox.clock.set(signed.expires * 1000 - 1000);
    expect((await fetch(link)).status).toBe(200);
    t.sandbox.clock.set(signed.expires * 1000 + 1000);
    expect((await fetch(link)).status).toBe(403);
  } finally {
    t.sandbox.clock.set(start);
  }
});
