/**
 * The baseline: a client that sends what each cell needs the moment the cell asks, with plain fetch, and
 * nothing else: no batching across cells, no coalescing of identical requests, no cache. It knows what the
 * functions know (a market boundary given by id is tried as an MSA, then as a submarket) and respects the
 * contract's limits (a block of ids goes out in bulk details calls of at most MAX_BULK_DETAILS_IDS).
 */
import { MAX_BULK_DETAILS_IDS } from "../../src/api/contractLimits";
import type { Workbook, WorkbookCell } from "./referenceWorkbook";

export interface NaiveRun {
  /** HTTP requests the client sent for the workbook (its one token request not included). */
  sent: number;
  /** Requests answered with something other than 200: the baseline must not be cheaper by failing. */
  failed: number;
}

interface Credentials {
  clientId: string;
  clientSecret: string;
}

type Send = (method: "GET" | "POST", path: string, body?: unknown) => Promise<unknown>;

/** The requests of one cell, in the order the cell needs them. */
async function cellRequests(cell: WorkbookCell, accountId: number, send: Send): Promise<void> {
  switch (cell.fn) {
    case "PROPERTY":
      for (let start = 0; start < cell.ids.length; start += MAX_BULK_DETAILS_IDS) {
        const ids = cell.ids.slice(start, start + MAX_BULK_DETAILS_IDS).join(",");
        await send("GET", `/properties/bulk_details?account_id=${accountId}&property_ids=${ids}`);
      }
      return;
    case "FORECAST":
    case "GEOFORECAST": {
      const path =
        cell.fn === "FORECAST"
          ? `/properties/${cell.propertyId}/forecasts`
          : `/geo_boundary/${cell.boundaryId}/forecasts`;
      const aggregations = cell.fields.map((field) => ({ name: field, field, aggregation_type: "avg" }));
      await send("POST", path, { account_id: accountId, aggregations });
      return;
    }
    case "MARKET":
      for (const geoType of ["MSA", "BespokeSubmarket"]) {
        const answer = (await send("POST", "/explore_markets", {
          account_id: accountId,
          market_filters: { geo_type: geoType, geo_boundary_ids: [cell.boundary.id] },
          sort: "property_count_total",
          sort_direction: "desc",
          limit: 1,
        })) as { data?: unknown[] } | undefined;
        if ((answer?.data?.length ?? 0) > 0) return;
      }
      return;
    case "UNITS":
      await send("GET", `/comp_sets/${cell.compSetId}/units`);
      return;
    case "SURVEY":
      await send("GET", `/comp_sets/${cell.compSetId}/market_survey`);
      return;
    case "NARRATIVE":
      await send("GET", `/markets/narratives?account_id=${accountId}&geo_boundary_id=${cell.boundaryId}`);
      return;
  }
}

/**
 * Runs the workbook's cells with at most `connections` requests on the wire at once (a browser allows
 * about six per origin; the benchmark uses more only to finish sooner: the count does not depend on it).
 */
export async function runNaiveClient(
  serviceUrl: string,
  credentials: Credentials,
  workbook: Workbook,
  connections: number,
): Promise<NaiveRun> {
  const tokenResponse = await fetch(`${serviceUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", ...toWire(credentials) }),
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const run: NaiveRun = { sent: 0, failed: 0 };
  const send: Send = async (method, path, body) => {
    run.sent += 1;
    const response = await fetch(`${serviceUrl}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status !== 200) {
      run.failed += 1;
      await response.arrayBuffer();
      return undefined;
    }
    return response.json();
  };
  const queue = [...workbook.cells];
  const worker = async () => {
    for (let cell = queue.shift(); cell; cell = queue.shift())
      await cellRequests(cell, workbook.accountId, send);
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return run;
}

function toWire(credentials: Credentials) {
  return { client_id: credentials.clientId, client_secret: credentials.clientSecret };
}
