/**
 * A forecast's window starts at the current month (api-spec, forecasts rule 1; a month in US Eastern time), so a
 * forecast the relay forwards whole (a body its batcher does not carry) is served from the cache within a month
 * and asked of the service again once a new month has begun, though no daily posting came between.
 */
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { startTestRelay, type TestRelay } from "./support/relayHarness";

const FORECASTS = "/v1/properties/:property_id/forecasts";
/** The service's posting is at 07:00 US Eastern: none falls between the three questions below. */
const LAST_EVENING = Date.parse("2026-12-01T04:30:00Z"); // 23:30 on 30 November, US Eastern
const LATER_THAT_EVENING = Date.parse("2026-12-01T04:50:00Z"); // 23:50 on 30 November
const NEW_MONTH = Date.parse("2026-12-01T05:10:00Z"); // 00:10 on 1 December

let sandbox: RunningSandbox;
let relay: TestRelay;
let key: string;
let clockMs = LAST_EVENING;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000 });
  relay = await startTestRelay(sandbox, { clock: () => clockMs });
  key = await relay.addUser("analyst", [100]);
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

test("a forwarded forecast is asked again in a new month, and only then", async () => {
  const propertyId = sandbox.dataset().properties.find((property) => property.hasForecast)?.id as number;
  // Two aggregations under one name: a body the forecast batcher does not carry, so it is forwarded whole.
  const body = {
    account_id: 100,
    aggregations: [
      { name: "growth", field: "rent_growth_rate_yoy", aggregation_type: "avg" },
      { name: "growth", field: "rent_growth_rate_yoy", aggregation_type: "max" },
    ],
  };
  const ask = async () => {
    const answer = await relay.api(key, `/v1/properties/${propertyId}/forecasts`, body);
    expect(answer.status).toBe(200);
    return sandbox.counters.get(FORECASTS);
  };
  const first = await ask();
  clockMs = LATER_THAT_EVENING;
  expect(await ask()).toBe(first);
  clockMs = NEW_MONTH;
  expect(await ask()).toBe(first + 1);
});
