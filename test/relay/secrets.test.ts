/**
 * The relay's upstream secret and token, and everyone's personal keys, stay inside it: searched for in every
 * response (bodies and headers) and every log line of a run that goes through the success paths, refusals,
 * service errors, a token revocation at the service and a relay whose own secret is wrong.
 */
import type { RunningSandbox } from "../../sandbox/server";
import { RELAY_CLIENT, startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

let sandbox: RunningSandbox;
let relay: TestRelay;
const issuedTokens: string[] = [];
const seen: string[] = [];

async function record(response: Response): Promise<Response> {
  seen.push(`${response.status} ${JSON.stringify([...response.headers])} ${await response.clone().text()}`);
  return response;
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const tokens = sandbox.context.tokens;
  const issue = tokens.issueClientCredentialsToken.bind(tokens);
  jest.spyOn(tokens, "issueClientCredentialsToken").mockImplementation((clientId) => {
    const issued = issue(clientId);
    issuedTokens.push(issued.accessToken);
    return issued;
  });
  relay = await startTestRelay(sandbox);
});

afterAll(async () => {
  await relay.close();
  await sandbox.close();
});

test("no response and no log line holds the upstream secret, an upstream token or a personal key", async () => {
  const key = await relay.addUser("analyst", [100, 103]);
  const adminKey = await relay.addUser("boss", [], true);
  const ids = sandbox
    .dataset()
    .properties.slice(0, 4)
    .map((property) => property.id);
  const calls: [string, unknown?][] = [
    ["/v1/accounts"],
    [`/v1/properties/bulk_details?account_id=100&property_ids=${ids.join(",")}`],
    [`/v1/properties/bulk_details?account_id=100&property_ids=`],
    [`/v1/properties/bulk_details?account_id=102&property_ids=${ids.join(",")}`],
    ["/v1/explore_markets", { account_id: 100, limit: 2 }],
    ["/v1/explore_markets", { account_id: 100, market_filters: { bogus: 1 } }],
    [
      `/v1/properties/${ids[0]}/forecasts`,
      { account_id: 100, aggregations: [{ field: "occupancy_percent", aggregation_type: "avg" }] },
    ],
    [`/v1/properties/${ids[0]}/forecasts`, { account_id: 100, aggregations: [] }],
    ["/v1/accounts/100/comp_sets"],
    [
      "/v1/bulk_api/jobs",
      {
        report_type: "units",
        output_format: "jsonl",
        start_date: "2026-10-01",
        end_date: "2026-10-01",
        property_ids: ids,
      },
    ],
    ["/v1/bulk_api/jobs"],
    ["/v1/no_such_endpoint?account_id=100"],
  ];
  for (const [path, body] of calls) await record(await relay.api(key, path, body));
  // The service revokes the relay's token: the relay gets a new one by itself and the person never notices.
  sandbox.context.tokens.revoke({ clientId: RELAY_CLIENT.clientId });
  expect(
    (await record(await relay.api(key, "/v1/markets/narratives?account_id=100&geo_boundary_id=1000"))).status,
  ).toBe(200);
  await record(
    await relay.api("rmr_0000000000000000_notakeynotakeynotakeynotakeynotakeynotakeyn", "/v1/accounts"),
  );
  await record(
    await fetch(`${relay.url}/relay/status`, { headers: { Authorization: `Bearer ${adminKey}` } }),
  );
  await record(await fetch(`${relay.url}/relay/status`, { headers: { Authorization: `Bearer ${key}` } }));

  expect(issuedTokens.length).toBeGreaterThanOrEqual(2);
  const everything = `${seen.join("\n")}\n${relay.log.text}`;
  expect(relay.log.lines.length).toBeGreaterThan(calls.length);
  expect(everything).not.toContain(RELAY_CLIENT.clientSecret);
  for (const token of issuedTokens) expect(everything).not.toContain(token);
  expect(relay.log.text).not.toContain(key);
  expect(relay.log.text).not.toContain(adminKey);
});

test("a relay whose own secret is refused says so without repeating it", async () => {
  const wrongSecret = "relay-secret-that-the-service-refuses";
  const misconfigured = await startTestRelay(sandbox, { clientSecret: wrongSecret });
  try {
    const key = await misconfigured.addUser("analyst", [100]);
    const answer = await misconfigured.api(key, "/v1/accounts");
    expect(answer.status).toBe(502);
    const text = await answer.text();
    expect(JSON.parse(text).message).toMatch(/client id or secret was not accepted/);
    expect(`${text}\n${misconfigured.log.text}`).not.toContain(wrongSecret);
  } finally {
    await misconfigured.close();
  }
});
