/**
 * Words an underwriter types: plain words ("occupancy", "concessions") are answered with the fields that hold
 * them; the forecast fields that mean the same for properties and markets are taken by either name; a column of
 * forecast rent (use_rent_value) says rent, not growth.
 */
import { forecast, geoForecast } from "../../src/functions/forecastFunctions";
import { market } from "../../src/functions/marketFunctions";
import { properties, property } from "../../src/functions/propertyFunctions";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

let env: SignedInSandbox;
let msaId: number;
let propertyId: number;

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro");
  const found = await env.raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
    account_id: env.accountId,
    query: "Austin",
    geo_type: ["MSA"],
    limit: 1,
  });
  msaId = found.data[0]?.attributes.id as number;
  // A property with a forecast (the sandbox, like the service, has none for some).
  const ids = (
    await env.raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: env.accountId,
      city: "Austin",
      per_page: 20,
    })
  ).data;
  for (const id of ids) {
    const answer = await env.raw.post<{
      data: { attributes: { time_series: { values: Record<string, unknown> }[] } };
    }>(`/properties/${id}/forecasts`, {
      account_id: env.accountId,
      aggregations: [{ name: "o", field: "occupancy_percent", aggregation_type: "avg" }],
    });
    propertyId = id;
    if (answer.data.attributes.time_series.some((row) => row.values.o !== null)) break;
  }
});

afterAll(() => env.close());

const geo = (field: string, useRentValue?: boolean) =>
  geoForecast(
    msaId,
    [[field]],
    undefined,
    "year",
    undefined,
    undefined,
    useRentValue,
    undefined,
    fakeInvocation(),
  );
const prop = (field: string) =>
  forecast(
    propertyId,
    [[field]],
    undefined,
    "year",
    undefined,
    undefined,
    undefined,
    true,
    undefined,
    fakeInvocation(),
  );

it("answers plain words with the fields that hold them", async () => {
  await expect(market([[msaId]], [["occupancy"]], undefined, fakeInvocation())).rejects.toMatchObject({
    code: "#VALUE!",
    // Both occupancies, each with what it means (the contract's x-field-synonyms).
    message:
      '"occupancy" names 2 fields: "leased_percent_avg_t30" (leased occupancy: the share of units under lease, the occupancy the narrative reports, average of the last 30 days) or "advertised_occupancy_percent_avg_t30" (advertised occupancy: the share of units not advertised as available, average of the last 30 days). Name one.',
  });
  await expect(market([[msaId]], [["concessions"]], undefined, fakeInvocation())).rejects.toMatchObject({
    message: expect.stringContaining('"concession_percent_avg_t30"'),
  });
  await expect(property([[propertyId]], [["occupancy"]], fakeInvocation())).rejects.toMatchObject({
    message: expect.stringContaining('"leased_percent"'),
  });
  await expect(geo("vacancy")).rejects.toMatchObject({
    code: "#VALUE!",
    message: expect.stringMatching(/^field: "vacancy" is not a forecast field of a boundary\./),
  });
  await expect(geo("rent_grwth_yoy")).rejects.toMatchObject({
    message: 'field: "rent_grwth_yoy" is not a forecast field of a boundary. Did you mean "rent_growth_yoy"?',
  });
});

it("takes the property names of forecast fields for a market and the market names for a property", async () => {
  const byMarketName = await geo("rent_growth_yoy");
  const byPropertyName = await geo("rent_growth_rate_yoy");
  expect(byPropertyName[0]).toEqual([
    "date",
    "rent_growth_rate_yoy",
    "covers_from",
    "covers_to",
    "months_covered",
  ]);
  expect(byPropertyName.slice(1)).toEqual(byMarketName.slice(1));
  expect((await geo("occupancy_percent_upside")).slice(1)).toEqual((await geo("occupancy_upside")).slice(1));
  expect((await prop("occupancy")).slice(1)).toEqual((await prop("occupancy_percent")).slice(1));
});

it("titles a forecast rent column as rent when use_rent_value turns growth into dollars", async () => {
  const table = await geo("rent_growth_yoy, occupancy", true);
  expect(table[0]?.slice(0, 3)).toEqual(["date", "forecast rent (rent_growth_yoy)", "occupancy"]);
  expect((table[1] as number[])[1]).toBeGreaterThan(100);
});

it("takes a market or area by name wherever one is asked, through one resolver", async () => {
  const byId = await geoForecast(
    msaId,
    [["rent_growth_yoy"]],
    undefined,
    "year",
    undefined,
    undefined,
    undefined,
    undefined,
    fakeInvocation(),
  );
  const byName = await geoForecast(
    "Austin",
    [["rent_growth_yoy"]],
    undefined,
    "year",
    undefined,
    undefined,
    undefined,
    undefined,
    fakeInvocation(),
  );
  expect(byName).toEqual(byId);
  // RENT.PROPERTIES takes every kind of area: "Austin" is the one named so exactly, the city, not the metro.
  const city = await env.raw.post<{ data: { attributes: { id: number; name: string } }[] }>(
    "/geo_boundaries/search",
    { account_id: env.accountId, query: "Austin", geo_type: ["CensusPlace"], limit: 1 },
  );
  expect(city.data[0]?.attributes.name).toBe("Austin, TX");
  const areaId = city.data[0]?.attributes.id as number;
  const named = await properties(
    [["Austin"]],
    [["property_id, asking_rent"]],
    [["max_results=10"]],
    undefined,
    fakeInvocation(),
  );
  expect(named).toEqual(
    await properties(
      [[areaId]],
      [["property_id, asking_rent"]],
      [["max_results=10"]],
      undefined,
      fakeInvocation(),
    ),
  );
  expect(named.length).toBe(11);
  await expect(
    geoForecast(
      "Zzyzxqq",
      [["rent_growth_yoy"]],
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      fakeInvocation(),
    ),
  ).rejects.toMatchObject({ code: "#N/A", message: 'No MSA, submarket or ZIP code named "Zzyzxqq".' });
});
