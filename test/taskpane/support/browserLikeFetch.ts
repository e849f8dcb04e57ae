/**
 * Node's fetch knows nothing of CORS, so on its own it would read any download host. This stand-in behaves
 * like a browser page at `pageOrigin` for the parts the download path depends on: it sends Origin, refuses to
 * hand over a cross-origin answer without a matching Access-Control-Allow-Origin (TypeError, as browsers do),
 * drops Authorization when a followed redirect changes origin (the Fetch standard), and, when
 * `hideManualRedirects` is set, answers `redirect: "manual"` with an opaque redirect whose Location cannot be
 * read, as browsers do. Every request that reaches the network is recorded.
 */
export interface SentRequest {
  url: string;
  headers: Headers;
}

export interface BrowserLikeFetch {
  fetch: typeof fetch;
  sent: SentRequest[];
}

function corsAllows(response: Response, origin: string): boolean {
  const allowed = response.headers.get("access-control-allow-origin");
  return allowed === "*" || allowed === origin;
}

function withUrl(response: Response, url: string): Response {
  Object.defineProperty(response, "url", { value: url });
  return response;
}

function opaqueRedirect(url: string): Response {
  const response = withUrl(new Response(null, { status: 200 }), url);
  Object.defineProperty(response, "type", { value: "opaqueredirect" });
  return response;
}

export function browserLikeFetch(
  pageOrigin: string,
  options: { hideManualRedirects: boolean },
): BrowserLikeFetch {
  const sent: SentRequest[] = [];
  const browserFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    // openapi-fetch passes a Request; the token endpoint a URL and init: one Request covers both.
    let request = new Request(input, init);
    const mode = request.redirect;
    let origin = pageOrigin;
    for (let hop = 0; hop < 5; hop++) {
      const sameOrigin = new URL(request.url).origin === pageOrigin;
      const headers = new Headers(request.headers);
      if (!sameOrigin) headers.set("Origin", origin);
      sent.push({ url: request.url, headers: new Headers(headers) });
      const response = await fetch(new Request(request, { headers, redirect: "manual" }));
      if (!sameOrigin && !corsAllows(response, origin)) throw new TypeError("Failed to fetch");
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location) return withUrl(response, request.url);
      if (mode === "manual") return options.hideManualRedirects ? opaqueRedirect(request.url) : response;
      const next = new URL(location, request.url).href;
      const nextHeaders = new Headers(request.headers);
      if (new URL(next).origin !== new URL(request.url).origin) {
        nextHeaders.delete("Authorization");
        // A request redirected across origins carries an opaque origin from then on.
        origin = "null";
      }
      request = new Request(next, { headers: nextHeaders, signal: request.signal });
    }
    throw new TypeError("Too many redirects");
  };
  return { fetch: browserFetch as typeof fetch, sent };
}
