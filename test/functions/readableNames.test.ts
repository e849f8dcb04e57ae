/**
 * Readable names beside exact ids: each field's short name is written once in the contract (`x-field-labels`,
 * generated into src/api/fieldCatalogue.ts); the spilling functions head their columns with ids by default and
 * with those names for headers = "names", the data underneath unchanged.
 */
import { FIELD_CATALOGUE } from "../../src/api/fieldCatalogue";
import { labelOf } from "../../src/api/fieldFacts";
import { survey } from "../../src/functions/compSetFunctions";
import { geoForecast } from "../../src/functions/forecastFunctions";
import { markets } from "../../src/functions/marketFunctions";
import { properties } from "../../src/functions/propertyFunctions";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

let env: SignedInSandbox;
let msaId: number;

beforeAll(async () => {
  env = await startSignedInSandbox("demo-proplus");
  const found = await env.raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
    account_id: env.accountId,
    query: "Austin",
    geo_type: ["MSA"],
    limit: 1,
  });
  msaId = found.data[0]?.attributes.id as number;
});

afterAll(() => env.close());

it("gives every field of every record a readable name of its own, from the contract", () => {
  for (const [record, fields] of Object.entries(FIELD_CATALOGUE)) {
    for (const [field, facts] of Object.entries(fields)) {
      const { label } = facts as { label: string };
      expect({ record, field, readable: label !== "" && label !== field && !label.includes("_") }).toEqual({
        record,
        field,
        readable: true,
      });
    }
  }
  expect(labelOf("rent_avg_t30")).toBe("Asking rent, avg 30 d");
  expect(labelOf("leased_percent_avg_t30", "market")).toBe("Leased %, avg 30 d");
  // A keyed group's column: the group's name and its key.
  expect(labelOf("by_unit_type_rent_avg_studio", "survey")).toBe("Rent by unit type, avg (studio)");
});

it("heads RENT.MARKETS and RENT.PROPERTIES with ids by default and readable names on request", async () => {
  const compare = (headers?: string) =>
    markets([["rent_avg_t30, leased_percent_avg_t30"]], [["limit=5; states=TX"]], headers, fakeInvocation());
  const byIds = await compare();
  const byNames = await compare("names");
  expect(byIds[0]).toEqual(["id", "name", "geo_type", "rent_avg_t30", "leased_percent_avg_t30"]);
  expect(await compare("IDS")).toEqual(byIds);
  expect(byNames[0]).toEqual(["Id", "Name", "Geo type", "Asking rent, avg 30 d", "Leased %, avg 30 d"]);
  expect(byNames.slice(1)).toEqual(byIds.slice(1));

  const listed = (headers?: string) =>
    properties(
      [[msaId]],
      [["property_id, asking_rent, unit_count"]],
      [["max_results=5"]],
      headers,
      fakeInvocation(),
    );
  const named = await listed("names");
  expect(named[0]).toEqual(["Property id", "Asking rent", "Units"]);
  expect(named.slice(1)).toEqual((await listed()).slice(1));
});

it("heads a forecast with readable names, a use_rent_value column as forecast rent either way", async () => {
  const run = (useRentValue: boolean, headers?: string) =>
    geoForecast(
      msaId,
      [["rent_growth_yoy, occupancy"]],
      undefined,
      "year",
      undefined,
      undefined,
      useRentValue,
      headers,
      fakeInvocation(),
    );
  // A year also says which months it covers (test/functions/forecastPeriods.test.ts), of its 12.
  const covers = ["Covers from", "Covers to", "Months covered (of 12)"];
  expect((await run(false, "names"))[0]).toEqual(["Date", "Rent growth YoY", "Occupancy", ...covers]);
  expect((await run(true))[0]?.slice(0, 3)).toEqual(["date", "forecast rent (rent_growth_yoy)", "occupancy"]);
  expect((await run(true, "names"))[0]).toEqual(["Date", "Forecast rent", "Occupancy", ...covers]);
});

it("heads a comp set's survey with readable names, keyed columns included, and refuses an unknown choice", async () => {
  const sets = await env.raw.get<{ data: { id: string }[] }>(`/accounts/${env.accountId}/comp_sets`);
  const compSetId = Number(sets.data[0]?.id);
  const byIds = await survey(compSetId, undefined, undefined, fakeInvocation());
  const byNames = await survey(compSetId, undefined, "names", fakeInvocation());
  expect(byNames.slice(1)).toEqual(byIds.slice(1));
  const snake = (byNames[0] as string[]).filter((header) => /^[a-z0-9]+(_[a-z0-9]+)+$/.test(header));
  expect(snake).toEqual([]);
  expect(byNames[0]).toContain("Avg rent");
  await expect(survey(compSetId, undefined, "labels", fakeInvocation())).rejects.toMatchObject({
    code: "#VALUE!",
    message: 'headers must be one of ids, names, not "labels".',
  });
});
