/**
 * Where the service lives. `serviceUrl` is the spec's {base_url}: every data path below carries the `/v1`
 * prefix. `tokenUrl` is the full URL of the OAuth token endpoint ({auth_url}/oauth/token).
 */
export interface ServiceConfig {
  serviceUrl: string;
  tokenUrl: string;
}

/** The local sandbox that `npm start` runs: the default data source during development. */
export const SANDBOX_CONFIG: ServiceConfig = {
  serviceUrl: "http://127.0.0.1:4010",
  tokenUrl: "http://127.0.0.1:4010/oauth/token",
};

/**
 * A build for a server (`ADDIN_BASE_URL`) is served by the team relay (relay/), which forwards the service's
 * API under the same origin at `api/`: the default service URL there. Webpack writes the value in at build
 * time; development builds and Node leave it undefined.
 */
export const RELAY_CONFIG: ServiceConfig | undefined = relayConfigOf(process.env.RENT_RELAY_SERVICE_URL);

function relayConfigOf(serviceUrl: string | undefined): ServiceConfig | undefined {
  return serviceUrl ? { serviceUrl, tokenUrl: `${serviceUrl}/oauth/token` } : undefined;
}

/** The live service (see the project README). */
export const LIVE_CONFIG: ServiceConfig = {
  serviceUrl: "https://data.apartmentiq.io/apartmentiq/api",
  tokenUrl: "https://data.apartmentiq.io/oauth/token",
};

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Checks and normalises a config typed by a person; throws a message they can act on. */
export function normaliseConfig(config: ServiceConfig): ServiceConfig {
  const check = (label: string, value: string): string => {
    let parsed: URL;
    try {
      parsed = new URL(value.trim());
    } catch {
      throw new Error(`${label} is not a URL: enter something like ${SANDBOX_CONFIG.serviceUrl}.`);
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
      throw new Error(`${label} must start with https:// (or http:// for the local sandbox).`);
    }
    if (parsed.search || parsed.hash) throw new Error(`${label} must not contain ? or #.`);
    return withoutTrailingSlash(parsed.toString());
  };
  return {
    serviceUrl: check("Service URL", config.serviceUrl),
    tokenUrl: check("Token URL", config.tokenUrl),
  };
}

/** The token endpoint that belongs to a service URL when none is given: {origin}/oauth/token. */
export function defaultTokenUrl(serviceUrl: string): string {
  return `${new URL(serviceUrl).origin}/oauth/token`;
}
