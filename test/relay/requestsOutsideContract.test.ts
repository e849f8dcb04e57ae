/**
 * The relay refuses at its door what the service would refuse by the contract, with the service's own words,
 * before any of the team's budget or an account's quota is spent: the one request validator
 * (src/api/requestValidator.ts) the sandbox answers by. And what the live service was seen to accept (api-notes)
 * still passes.
 */
import type { RunningSandbox } from "../../sandbox/server";
import { RELAY_CLIENT, startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

const ACCOUNT = 100;
const BULK_DETAILS = "/v1/properties/bulk_details";
const EXPLORE = "/v1/explore_markets";

let sandbox: RunningSandbox;
let relay: TestRelay;
let key: string;
let serviceToken: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  relay = await startTestRelay(sandbox);
  key = await relay.addUser("analyst", [ACCOUNT]);
  const token = await fetch(`${sandbox.url}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: RELAY_CLIENT.clientId,
      client_secret: RELAY_CLIENT.clientSecret,
    }),
  });
  serviceToken = ((await token.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

/** The service's own answer to the same request, asked directly with the relay's credentials. */
async function serviceSays(
  pathAndQuery: string,
  body?: unknown,
): Promise<{ status: number; message: string }> {
  const answer = await fetch(`${sandbox.url}${pathAndQuery}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      Authorization: `Bearer ${serviceToken}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: answer.status, message: ((await answer.json()) as { message: string }).message };
}

async function relaySays(pathAndQuery: string, body?: unknown): Promise<{ status: number; message: string }> {
  const answer = await relay.api(key, pathAndQuery, body);
  const said = (await answer.json()) as { message?: string };
  return { status: answer.status, message: said.message ?? "(no message)" };
}

test("a comma list of 2,000 ids is refused as the service refuses it, with no call and no quota spent", async () => {
  const ids = Array.from({ length: 2000 }, (_, index) => 100001 + index);
  const pathAndQuery = `${BULK_DETAILS}?account_id=${ACCOUNT}&property_ids=${ids.join(",")}`;
  const service = await serviceSays(pathAndQuery);
  expect(service).toEqual({ status: 400, message: "property_ids must contain at most 200 ids" });
  const before = sandbox.counters.get(BULK_DETAILS);

  expect(await relaySays(pathAndQuery)).toEqual(service);
  expect(sandbox.counters.get(BULK_DETAILS)).toBe(before);
  const status = await relay.relay.stats.snapshot("", {});
  expect(status.quotaUsedByAccount[ACCOUNT] ?? 0).toBe(0);

  // The contract's 200 still pass, in one call.
  const allowed = await relay.api(
    key,
    `${BULK_DETAILS}?account_id=${ACCOUNT}&property_ids=${ids.slice(0, 200).join(",")}`,
  );
  expect(allowed.status).toBe(200);
  expect(sandbox.counters.get(BULK_DETAILS)).toBe(before + 1);
});

test("a body member the contract does not define is refused as the service refuses it, and not forwarded", async () => {
  const propertyId = sandbox.dataset().properties.find((property) => property.hasForecast)?.id as number;
  const forecast = `/v1/properties/${propertyId}/forecasts`;
  const aggregation = { name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" };
  const cases: [string, unknown][] = [
    [EXPLORE, { account_id: ACCOUNT, limit: 2, colour: "red" }],
    [forecast, { account_id: ACCOUNT, aggregations: [aggregation], colour: "red" }],
    [forecast, { account_id: ACCOUNT, aggregations: [{ ...aggregation, weight: 2 }] }],
  ];
  for (const [path, body] of cases) {
    const service = await serviceSays(path, body);
    expect(service.status).toBe(400);
    const before = sandbox.counters.total();
    expect({ path, ...(await relaySays(path, body)) }).toEqual({ path, ...service });
    expect(sandbox.counters.total()).toBe(before);
  }
});

test("a request the contract refuses, for an account that is not the person's, is refused for the account", async () => {
  // The service checks access before parameters (api-notes, second pass): 403, not 400.
  const theirs = await relaySays(EXPLORE, { account_id: 103, limit: 2, colour: "red" });
  expect(theirs.status).toBe(403);
  expect(theirs.message).toMatch(/Account 103 is not one the team relay gives analyst/);
});

test("what the live service accepts passes the relay's door", async () => {
  const compSet = (await (await relay.api(key, `/v1/accounts/${ACCOUNT}/comp_sets`)).json()) as {
    data: { id: string }[];
  };
  const compSetId = compSet.data[0]?.id as string;
  const accepted: [string, unknown][] = [
    // Comp set endpoints without account_id, the market survey with filter[bedroom_count] (api-notes, live).
    [`/v1/comp_sets/${compSetId}/market_survey?filter[bedroom_count]=1,2`, undefined],
    [`/v1/comp_sets/${compSetId}/units`, undefined],
    // Geo search's geo_type as one name or a list (api-notes, vendor docs).
    ["/v1/geo_boundaries/search", { account_id: ACCOUNT, query: "a", geo_type: "MSA", limit: 2 }],
    [
      "/v1/geo_boundaries/search",
      { account_id: ACCOUNT, query: "a", geo_type: ["MSA", "ZipCode"], limit: 2 },
    ],
    [EXPLORE, { account_id: ACCOUNT, limit: 2 }],
  ];
  for (const [path, body] of accepted) {
    const answer = await relay.api(key, path, body);
    const said = answer.status === 200 ? "" : ((await answer.json()) as { message: string }).message;
    expect({ path, body, status: answer.status, said }).toEqual({ path, body, status: 200, said: "" });
  }
});
