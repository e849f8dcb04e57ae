import { ServiceClient } from "../../../src/api/client";
import { TokenManager } from "../../../src/api/tokens";
import { ApiError } from "../../../src/api/errors";
import {
  DataLayer,
  type DataLayerOptions,
  type MarketOptions,
  type MarketAttributes,
  type PropertyAttributes,
} from "../../../src/data/dataLayer";
import type { AccountCallOptions, Fetched } from "../../../src/data/fetched";
import { accountsForClient, SHARED_ACCOUNT_ID } from "../../../sandbox/data/clients";
import { propertyEnvelope } from "../../../sandbox/data/propertyRecord";
import type { RunningSandbox } from "../../../sandbox/server";
import { PROPERTY_DETAILS, MARKET_METRICS } from "../../../src/data/batchedEndpoints";

export const PRO = { clientId: "demo-pro", clientSecret: "sandbox-secret-pro" } as const;
export const ACCOUNT_ID = accountsForClient(PRO.clientId).some((a) => a.id === SHARED_ACCOUNT_ID)
  ? SHARED_ACCOUNT_ID
  : (accountsForClient(PRO.clientId)[0]?.id as number);

/** Pacing that never holds a test back: the tests count requests, they do not wait for the live limit. */
export const UNPACED = { limit: 100_000, windowMs: 1000, burst: 100_000 };
/** Retries without real waiting: backoff of a few ms. */
export const QUICK_RETRY = { baseDelayMs: 2, maxDelayMs: 10 };

let databaseCounter = 0;

export interface Harness {
  layer: DataLayer;
  tokens: TokenManager;
  client: ServiceClient;
}

/** A data layer for demo-pro against a running sandbox, over its own IndexedDB database unless told. */
export function layerFor(
  sandbox: RunningSandbox,
  options: Partial<DataLayerOptions> = {},
  serviceFetch?: typeof fetch,
): Harness {
  const tokens = new TokenManager({
    tokenUrl: `${sandbox.url}/oauth/token`,
    credentials: { kind: "client", ...PRO },
  });
  const client = new ServiceClient(
    { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
    tokens,
    serviceFetch,
  );
  const layer = new DataLayer({
    client,
    caller: PRO.clientId,
    databaseName: `data-layer-test-${process.pid}-${++databaseCounter}`,
    pacing: UNPACED,
    retry: QUICK_RETRY,
    batchWindowMs: 5,
    ...options,
  });
  return { layer, tokens, client };
}

/** The sandbox's own record of a property today, as a pro client sees it. */
export function expectedAttributes(sandbox: RunningSandbox, id: number) {
  const dataset = sandbox.context.dataset();
  const property = dataset.propertyById.get(id);
  if (!property) throw new Error(`No property ${id} in the sandbox`);
  const today = sandbox.clock.today();
  return propertyEnvelope(dataset, property, { collectedAt: today, today, includeOwnership: false })
    .attributes;
}

/** The first `count` property ids of the sandbox's dataset. */
export function propertyIds(sandbox: RunningSandbox, count: number): number[] {
  return sandbox.context
    .dataset()
    .properties.slice(0, count)
    .map((property) => property.id);
}

/** Requests the sandbox has counted on one route since `before` (a snapshot of counters). */
export function countSince(sandbox: RunningSandbox, path: string, before: Record<string, number>): number {
  return sandbox.counters.get(path) - (before[path] ?? 0);
}

/** One property's details through the batched read, its own error thrown (as a cell sees it). */
export async function propertyOf(
  layer: DataLayer,
  id: number,
  options: AccountCallOptions,
): Promise<Fetched<PropertyAttributes>> {
  const answer = (await layer.readMany(PROPERTY_DETAILS, {}, [id], options)).records.get(id);
  if (answer === undefined || answer instanceof ApiError) throw answer;
  return answer;
}

/** Market metrics of boundaries through the batched read: each boundary its value or its own error. */
export async function marketsOf(
  layer: DataLayer,
  ids: number[],
  market: MarketOptions,
  options: AccountCallOptions,
): Promise<Map<number, Fetched<MarketAttributes> | ApiError>> {
  return (await layer.readMany(MARKET_METRICS, market, ids, options)).records;
}

/** One boundary's market metrics through the batched read, its own error thrown. */
export async function marketOf(
  layer: DataLayer,
  id: number,
  market: MarketOptions,
  options: AccountCallOptions,
): Promise<Fetched<MarketAttributes>> {
  const answer = (await marketsOf(layer, [id], market, options)).get(id);
  if (answer === undefined || answer instanceof ApiError) throw answer;
  return answer;
}
