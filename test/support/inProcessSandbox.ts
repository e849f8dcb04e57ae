/**
 * A sandbox in the test's own process, reached without a socket: `fetch` here is the WHATWG fetch carried out
 * by fastify's `inject()` on the sandbox's app (and on its download server, the second origin that serves
 * signed export links). The sandbox runs every hook, validator and handler as it does over HTTP; only the
 * sockets are left out, so a test of the data layer or the functions starts no server and runs in the unit
 * project (test/support/testWeight.js).
 *
 * What the transport keeps from fetch: the request as `new Request(input, init)` reads it (method, headers,
 * body of any kind), redirects followed unless `redirect: "manual"` (the Authorization header dropped on a
 * cross-origin hop, as fetch does), an abort that rejects at once with the signal's reason, and a Response
 * with the status, headers and body the sandbox sent. What it leaves out: bodies arrive whole, not streamed,
 * and a client that goes away is not seen by the server; tests of those run over real HTTP
 * (startSandbox, named `*.http.test.ts`).
 */
import type { FastifyInstance } from "fastify";
import { buildSandbox, type RunningSandbox, type SandboxOptions } from "../../sandbox/server";
import { buildDownloadServer } from "../../sandbox/jobs/downloadServer";

export interface InProcessSandbox extends RunningSandbox {
  /** fetch for this sandbox's two origins (`url` and `downloadUrl`); any other URL is refused. */
  fetch: typeof fetch;
  /** Calls `listener` with the path and query of each request the API receives (as a server's "request" event). */
  onRequest(listener: (pathAndQuery: string) => void): void;
}

let sandboxes = 0;

/** Hosts that are never resolved (RFC 2606's `.invalid`): a request that escapes the transport fails. */
const originFor = (name: string) => `http://${name}.in-process.invalid`;

export async function buildInProcessSandbox(
  overrides: Partial<SandboxOptions> = {},
): Promise<InProcessSandbox> {
  const app = await buildSandbox({ rateLimit: 1_000_000, ...overrides });
  const context = app.sandbox;
  const downloads = await buildDownloadServer(context);
  const listeners: ((pathAndQuery: string) => void)[] = [];
  app.addHook("onRequest", async (request) => {
    for (const listener of listeners) listener(request.url);
  });
  await Promise.all([app.ready(), downloads.ready()]);
  sandboxes += 1;
  const url = originFor(`sandbox-${sandboxes}`);
  const downloadUrl = originFor(`downloads-${sandboxes}`);
  context.downloadOrigin = downloadUrl;
  let closed = false;
  const open = injectFetch(
    new Map([
      [url, app],
      [downloadUrl, downloads],
    ]),
  );
  // A closed sandbox refuses as a closed port does, rather than sending the request anywhere else.
  const fetchImpl: typeof fetch = (input, init) =>
    closed
      ? Promise.reject(
          new TypeError("fetch failed", {
            cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
          }),
        )
      : open(input, init);
  return {
    url,
    port: 0,
    downloadUrl,
    app,
    context,
    clock: context.clock,
    counters: context.counters,
    faults: context.faults,
    dataset: context.dataset,
    fetch: fetchImpl,
    onRequest: (listener) => listeners.push(listener),
    close: async () => {
      closed = true;
      await Promise.all([app.close(), downloads.close()]);
    },
  };
}

/** The in-process origins the file's global fetch sends to their sandbox (see routeGlobalFetch). */
const routed = new Map<string, InProcessSandbox>();

/**
 * Makes the global `fetch` of this test file send the sandbox's origins through its transport (other URLs go
 * to the fetch there was), so code that calls `fetch` itself (the session's client and token manager, the
 * pane's downloads, the test's raw service) reaches it by its URL alone. Jest gives each test file its own
 * global and module registry, so this ends with the file.
 */
export function routeGlobalFetch(sandbox: InProcessSandbox): void {
  if (routed.size === 0) {
    const previous = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const target = new URL(input instanceof Request ? input.url : String(input));
      const to = routed.get(target.origin);
      return to ? to.fetch(input, init) : previous(input, init);
    };
  }
  routed.set(sandbox.url, sandbox);
  routed.set(sandbox.downloadUrl, sandbox);
}

/** buildInProcessSandbox, reached by its URL through the file's global fetch (as a sandbox on a port is). */
export async function startInProcessSandbox(
  overrides: Partial<SandboxOptions> = {},
): Promise<InProcessSandbox> {
  const sandbox = await buildInProcessSandbox(overrides);
  routeGlobalFetch(sandbox);
  return sandbox;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);
const MAX_REDIRECTS = 20;

/** A fetch over `inject()` for the apps by origin. */
export function injectFetch(apps: Map<string, FastifyInstance>): typeof fetch {
  return async (input, init) => {
    let request = new Request(input, init);
    const signal = request.signal;
    for (let hop = 0; ; hop++) {
      signal?.throwIfAborted();
      const response = await abortable(injectOne(apps, request), signal);
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || !location || request.redirect === "manual") return response;
      if (request.redirect === "error") throw new TypeError(`fetch failed: redirect to ${location}`);
      if (hop >= MAX_REDIRECTS) throw new TypeError("fetch failed: redirect count exceeded");
      request = await redirected(request, response.status, new URL(location, request.url));
    }
  };
}

async function injectOne(apps: Map<string, FastifyInstance>, request: Request): Promise<Response> {
  const target = new URL(request.url);
  const app = apps.get(target.origin);
  if (!app) throw new TypeError(`fetch failed: ${target.origin} is not an in-process sandbox's origin`);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const injected = await app.inject({
    method: request.method as "GET",
    url: `${target.pathname}${target.search}`,
    headers: { ...headers, host: target.host },
    ...(body ? { payload: body } : {}),
  });
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(injected.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [String(value)]) responseHeaders.append(name, one);
  }
  const response = new Response(
    NULL_BODY.has(injected.statusCode) ? null : new Uint8Array(injected.rawPayload),
    {
      status: injected.statusCode,
      statusText: injected.statusMessage,
      headers: responseHeaders,
    },
  );
  // A Response made here has no URL; error messages that name it should read as they do over HTTP.
  Object.defineProperty(response, "url", { value: request.url });
  return response;
}

/** The request fetch makes for a redirect (WHATWG fetch, "HTTP-redirect fetch"). */
async function redirected(request: Request, status: number, location: URL): Promise<Request> {
  const headers = new Headers(request.headers);
  if (location.origin !== new URL(request.url).origin) headers.delete("authorization");
  const toGet =
    status === 303
      ? request.method !== "HEAD"
      : (status === 301 || status === 302) && request.method === "POST";
  if (toGet) {
    for (const name of [
      "content-type",
      "content-length",
      "content-encoding",
      "content-language",
      "content-location",
    ])
      headers.delete(name);
    return new Request(location, {
      method: request.method === "HEAD" ? "HEAD" : "GET",
      headers,
      redirect: request.redirect,
    });
  }
  const body = request.body ? await request.arrayBuffer() : undefined;
  return new Request(location, { method: request.method, headers, body, redirect: request.redirect });
}

/** Rejects as fetch does when `signal` aborts before `answer` settles. */
function abortable<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    answer.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
