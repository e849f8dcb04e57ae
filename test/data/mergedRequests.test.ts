import "fake-indexeddb/auto";
import { ApiError } from "../../src/api/errors";
import { boundaryMarket } from "../../sandbox/data/marketMetrics";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { ACCOUNT_ID, countSince, layerFor, marketOf, marketsOf, propertyIds } from "./support/dataHarness";
import { readForecast } from "../../src/data/forecastSeries";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startInProcessSandbox({ propertyCount: 2000, rateLimit: 100_000 });
});

afterAll(async () => {
  await sandbox.close();
});

const boundariesOf = (geoType: string, count: number) =>
  sandbox.context
    .dataset()
    .geography.boundaries.filter((boundary) => boundary.geoType === geoType)
    .slice(0, count);

describe("market metrics through /explore_markets", () => {
  it("sends one call for many boundaries with the same options, each caller its own market", async () => {
    const { layer } = layerFor(sandbox);
    const msas = boundariesOf("MSA", 10);
    const metrics = [
      "rent_avg_t30",
      "leased_percent_avg_t30",
      "total_unit_count",
      "name",
      "median_income",
      "cap_rate_avg",
    ] as const;
    const before = sandbox.counters.snapshot();
    const answers = await Promise.all(
      msas.flatMap((boundary) =>
        metrics.map(async (metric) => ({
          boundary,
          metric,
          value: (await marketOf(layer, boundary.id, {}, { accountId: ACCOUNT_ID })).value[metric],
        })),
      ),
    );
    expect(countSince(sandbox, "/v1/explore_markets", before)).toBe(1);
    const dataset = sandbox.context.dataset();
    for (const { boundary, metric, value } of answers) {
      expect(value).toEqual(boundaryMarket(dataset, boundary, sandbox.clock.today())[metric]);
    }
  });

  it("asks for MSAs and submarkets named by id in one call; a stated type or other options make their own", async () => {
    const { layer } = layerFor(sandbox);
    const [msa] = boundariesOf("MSA", 1);
    const [submarket] = boundariesOf("BespokeSubmarket", 1);
    const [county] = boundariesOf("County", 1);
    if (!msa || !submarket || !county) throw new Error("The sandbox lacks an MSA, a submarket or a county");
    const before = sandbox.counters.snapshot();
    const [anyType, asMsa, classA] = await Promise.all([
      marketsOf(layer, [msa.id, submarket.id, county.id], {}, { accountId: ACCOUNT_ID }),
      marketsOf(layer, [submarket.id], { geoType: "MSA" }, { accountId: ACCOUNT_ID }),
      marketsOf(layer, [msa.id], { propertyFilters: { property_class: ["A"] } }, { accountId: ACCOUNT_ID }),
    ]);
    expect(countSince(sandbox, "/v1/explore_markets", before)).toBe(3);
    expect(anyType.get(msa.id)).toMatchObject({ value: { id: msa.id, geo_type: "MSA" } });
    expect(anyType.get(submarket.id)).toMatchObject({
      value: { id: submarket.id, geo_type: "BespokeSubmarket" },
    });
    expect(anyType.get(county.id)).toBeInstanceOf(ApiError);
    expect(anyType.get(county.id)).toMatchObject({ kind: "not_found" });
    expect(asMsa.get(submarket.id)).toMatchObject({ kind: "not_found" });
    expect(classA.get(msa.id)).toMatchObject({ value: { id: msa.id } });

    // Asked again (a recalculation): every answer, "not a market" included, is known; no call.
    const again = await marketsOf(layer, [county.id, submarket.id], {}, { accountId: ACCOUNT_ID });
    expect(again.get(county.id)).toMatchObject({ kind: "not_found" });
    expect(again.get(submarket.id)).toMatchObject({ value: { id: submarket.id } });
    expect(countSince(sandbox, "/v1/explore_markets", before)).toBe(3);
  });
});

describe("forecasts", () => {
  it("merges the aggregations of requests for the same target and options into one call", async () => {
    const { layer, client } = layerFor(sandbox);
    const [propertyId] = propertyIds(sandbox, 1) as [number];
    const target = { kind: "property" as const, id: propertyId };
    const before = sandbox.counters.snapshot();
    const [growth, occupancy, both, yearly] = await Promise.all([
      readForecast(
        layer,
        target,
        { aggregations: [{ field: "rent_growth_rate_yoy", aggregation_type: "avg" }] },
        { accountId: ACCOUNT_ID },
      ),
      readForecast(
        layer,
        target,
        { aggregations: [{ field: "occupancy_percent", aggregation_type: "avg" }] },
        { accountId: ACCOUNT_ID },
      ),
      readForecast(
        layer,
        target,
        {
          aggregations: [
            { name: "growth", field: "rent_growth_rate_yoy", aggregation_type: "avg" },
            { name: "low", field: "rent_growth_rate_yoy_downside", aggregation_type: "avg" },
          ],
        },
        { accountId: ACCOUNT_ID },
      ),
      readForecast(
        layer,
        target,
        { interval: "year", aggregations: [{ field: "occupancy_percent", aggregation_type: "max" }] },
        { accountId: ACCOUNT_ID },
      ),
    ]);
    const path = "/v1/properties/:property_id/forecasts";
    expect(countSince(sandbox, path, before)).toBe(2); // monthly (merged) and yearly

    // The reference: the same aggregations asked for directly, in one plain call.
    const direct = await client.call((context) =>
      client.api.POST("/properties/{property_id}/forecasts", {
        ...context,
        params: { path: { property_id: propertyId } },
        body: {
          account_id: ACCOUNT_ID,
          interval: "month",
          offset: "0d",
          use_rent_value: false,
          use_submarket_fallback: false,
          aggregations: [
            { name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" },
            { name: "o", field: "occupancy_percent", aggregation_type: "avg" },
            { name: "d", field: "rent_growth_rate_yoy_downside", aggregation_type: "avg" },
          ],
        },
      }),
    );
    const series = direct.data.attributes.time_series;
    expect(series.length).toBeGreaterThan(12);
    expect(growth.value).toEqual(
      series.map((entry) => ({ date: entry.date, values: { rent_growth_rate_yoy: entry.values.g } })),
    );
    expect(occupancy.value).toEqual(
      series.map((entry) => ({ date: entry.date, values: { occupancy_percent: entry.values.o } })),
    );
    expect(both.value).toEqual(
      series.map((entry) => ({ date: entry.date, values: { growth: entry.values.g, low: entry.values.d } })),
    );
    expect(yearly.value.length).toBeLessThan(series.length);

    const again = await readForecast(
      layer,
      target,
      { aggregations: [{ field: "occupancy_percent", aggregation_type: "avg" }] },
      { accountId: ACCOUNT_ID },
    );
    expect(again.source).toBe("cache");
    expect(countSince(sandbox, path, before)).toBe(3); // only the direct reference call was added
  });

  it("refuses a boundary field for a property before it can spoil a merged call", async () => {
    const { layer } = layerFor(sandbox);
    await expect(
      readForecast(
        layer,
        { kind: "property", id: 1 },
        { aggregations: [{ field: "absorption", aggregation_type: "sum" }] },
        { accountId: ACCOUNT_ID },
      ),
    ).rejects.toMatchObject({ kind: "invalid_input" });
  });
});
