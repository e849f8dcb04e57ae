/**
 * The relay never hands a person's client a redirect of the service's, and fetches export files only from
 * the service's signed download hosts, without following a download host's own redirects. A proxy in front
 * of the sandbox plays a service (or a network) that points elsewhere; a counting server stands for
 * "elsewhere", which must never be asked.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningSandbox } from "../../sandbox/server";
import { startTestRelay, startTestSandbox, type TestRelay, succeededJob } from "./support/relayHarness";

/** A server on 127.0.0.1 answering with `handle`; its URL once listening. */
async function serve(
  handle: (
    method: string,
    path: string,
    body: Buffer,
    headers: Record<string, string>,
  ) => Promise<{ status: number; headers: Headers; body: Buffer }>,
): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers: Record<string, string> = {};
      for (const name of ["authorization", "content-type"]) {
        const value = request.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      handle(request.method ?? "GET", request.url ?? "/", Buffer.concat(chunks), headers).then(
        (answer) => {
          const headers: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(name))
              headers[name] = value;
          });
          response.writeHead(answer.status, headers).end(answer.body);
        },
        () => response.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let sandbox: RunningSandbox;
let relay: TestRelay;
let key: string;
const servers: Server[] = [];
/** Requests that reached "elsewhere". */
let strayRequests = 0;
let elsewhere: string;
let bouncer: string;
/** How the proxy changes the service's answer to a path, when it does. */
let tamper: (path: string, answer: { status: number; headers: Headers }) => void = () => undefined;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const stray = await serve(async () => {
    strayRequests += 1;
    return { status: 200, headers: new Headers(), body: Buffer.from("not the export") };
  });
  elsewhere = stray.url;
  // A host on the relay's list of download hosts that sends its callers on to elsewhere.
  const bouncing = await serve(async (_, path) => ({
    status: 302,
    headers: new Headers({ location: `${elsewhere}${path}` }),
    body: Buffer.alloc(0),
  }));
  bouncer = bouncing.url;
  const proxy = await serve(async (method, path, body, headers) => {
    const forwarded = await fetch(`${sandbox.url}${path}`, {
      method,
      redirect: "manual",
      headers,
      body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body),
    }).catch(() => undefined);
    if (!forwarded) return { status: 502, headers: new Headers(), body: Buffer.alloc(0) };
    return forwarded.arrayBuffer().then((bytes) => {
      const answer = { status: forwarded.status, headers: new Headers(forwarded.headers) };
      tamper(path, answer);
      return { ...answer, body: Buffer.from(bytes) };
    });
  });
  servers.push(stray.server, bouncing.server, proxy.server);
  relay = await startTestRelay(sandbox, {
    serviceUrl: proxy.url,
    downloadOrigins: [sandbox.downloadUrl, bouncer],
  });
  key = await relay.addUser("analyst-rosa", [100]);
});

beforeEach(() => {
  strayRequests = 0;
});

afterEach(() => {
  tamper = () => undefined;
});

afterAll(async () => {
  await relay?.close();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await sandbox?.close();
});

const jobOf = () => succeededJob(relay, sandbox, key);

const results = (jobId: string) =>
  fetch(`${relay.url}/api/v1/bulk_api/jobs/${jobId}/results`, {
    headers: { Authorization: `Bearer ${key}` },
    redirect: "manual",
  });

/** The results redirect's Location moved to `origin`, path and signature kept. */
const pointDownloadsAt = (origin: string) => {
  tamper = (path, answer) => {
    const location = answer.headers.get("location");
    if (path.endsWith("/results") && location) {
      const moved = new URL(location);
      answer.headers.set("location", `${origin}${moved.pathname}${moved.search}`);
    }
  };
};

test("a redirect the service answers to a forwarded request is not passed on: 502, no Location", async () => {
  const jobId = await jobOf();
  tamper = (path, answer) => {
    if (path === `/v1/bulk_api/jobs/${jobId}`) {
      answer.status = 302;
      answer.headers.set("location", `${elsewhere}/collect`);
    }
  };
  const answer = await fetch(`${relay.url}/api/v1/bulk_api/jobs/${jobId}`, {
    headers: { Authorization: `Bearer ${key}` },
    redirect: "manual",
  });
  expect(answer.status).toBe(502);
  expect(answer.headers.get("location")).toBeNull();
  expect(((await answer.json()) as { message: string }).message).toMatch(/redirect/);
  expect(strayRequests).toBe(0);
});

test("a redirect the service answers to a read the relay makes itself is not followed", async () => {
  // Bulk details go through the relay's own data layer (a batched read), not the forwarding path above.
  tamper = (path, answer) => {
    if (path.startsWith("/v1/properties/bulk_details")) {
      answer.status = 302;
      answer.headers.set("location", `${elsewhere}/collect`);
    }
  };
  const id = (sandbox.dataset().properties[0] as { id: number }).id;
  const answer = await relay.api(key, `/v1/properties/bulk_details?account_id=100&property_ids=${id}`);
  const text = await answer.text();
  expect(answer.status).toBe(502);
  expect(answer.headers.get("location")).toBeNull();
  expect(text).toMatch(/redirect/);
  expect(strayRequests).toBe(0);
});

test("an export on the service's download host is linked and streamed as before", async () => {
  const jobId = await jobOf();
  const linked = await results(jobId);
  expect(linked.status).toBe(302);
  const link = new URL(linked.headers.get("location") as string, linked.url).href;
  expect(link.startsWith(`${relay.url}/api/downloads/`)).toBe(true);
  const file = await fetch(link, { headers: { Authorization: `Bearer ${key}` } });
  expect(file.status).toBe(200);
  expect((await file.text()).split("\n")[0]).toContain("property_name");
});

test("a results redirect to a host that is not a download host is neither fetched nor passed on", async () => {
  const jobId = await jobOf();
  pointDownloadsAt(elsewhere);
  const linked = await results(jobId);
  expect(linked.status).toBe(502);
  expect(linked.headers.get("location")).toBeNull();
  expect(((await linked.json()) as { message: string }).message).toContain(new URL(elsewhere).origin);
  const browser = await fetch(`${relay.url}/api/downloads/links`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ job_id: jobId }),
  });
  expect(browser.status).toBe(502);
  expect(strayRequests).toBe(0);
});

test("a download host's own redirect is not followed", async () => {
  const jobId = await jobOf();
  pointDownloadsAt(bouncer);
  const linked = await results(jobId);
  expect(linked.status).toBe(302);
  const link = new URL(linked.headers.get("location") as string, linked.url).href;
  const file = await fetch(link, { headers: { Authorization: `Bearer ${key}` }, redirect: "manual" });
  expect(file.status).toBe(502);
  expect(file.headers.get("location")).toBeNull();
  expect(strayRequests).toBe(0);
});
