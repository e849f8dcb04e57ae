import { datasetFor } from "../../sandbox/data/dataset";
import { TRUNCATION_MARKER } from "../../sandbox/data/narratives";
import { ACCOUNT, startTestSandbox, type TestSandbox } from "./support/fixtures";

let t: TestSandbox;
const dataset = datasetFor(1, 20_000);

beforeAll(async () => {
  t = await startTestSandbox();
});

afterAll(async () => {
  await t.sandbox.close();
});

type Market = { id: string; attributes: Record<string, number | string | null | string[] | number[]> };

async function explore(json: object): Promise<Market[]> {
  const response = await t.client.as<{ data: Market[] }>("demo-pro", "POST", "/v1/explore_markets", {
    json: { account_id: ACCOUNT.pro, ...json },
  });
  expect(response.status).toBe(200);
  return response.body.data;
}

describe("POST /explore_markets", () => {
  it("answers a caller below the pro tier with limited data, not an error", async () => {
    const ask = (clientId: string, accountId: number) =>
      t.client.as<{ data: Market[] }>(clientId, "POST", "/v1/explore_markets", {
        json: { account_id: accountId, limit: 3 },
      });
    const full = await ask("demo-pro", ACCOUNT.pro);
    const base = await ask("demo-base", ACCOUNT.base);
    expect(base.status).toBe(200);
    expect(base.body.data.map((market) => market.id)).toEqual(full.body.data.map((market) => market.id));
    const [kept, complete] = [base.body.data[0]?.attributes, full.body.data[0]?.attributes];
    expect(kept?.rent_avg_t30).toBe(complete?.rent_avg_t30);
    expect(kept?.name).toBe(complete?.name);
    expect(typeof complete?.walk_score_avg).toBe("number");
    expect(kept?.walk_score_avg).toBeNull();
  });

  it("returns MSAs by default, 50 at most by default, sorted by property count descending", async () => {
    const markets = await explore({});
    expect(markets.length).toBe(
      Math.min(50, dataset.geography.boundaries.filter((b) => b.geoType === "MSA").length),
    );
    const counts = markets.map((m) => m.attributes.property_count_total as number);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it("returns boundaries named by id whatever their market type, unless a type is stated", async () => {
    const msa = dataset.geography.boundaries.find((b) => b.geoType === "MSA");
    const submarket = dataset.geography.boundaries.find((b) => b.geoType === "BespokeSubmarket");
    const county = dataset.geography.boundaries.find((b) => b.geoType === "County");
    const ids = [msa?.id, submarket?.id, county?.id];
    const named = await explore({ market_filters: { geo_boundary_ids: ids }, limit: 10 });
    expect(named.map((m) => Number(m.id)).sort()).toEqual([msa?.id, submarket?.id].sort());
    const submarketsOnly = await explore({
      market_filters: { geo_type: "BespokeSubmarket", geo_boundary_ids: ids },
      limit: 10,
    });
    expect(submarketsOnly.map((m) => Number(m.id))).toEqual([submarket?.id]);
  });

  it("sorts on any numeric attribute in either direction and honours limit 1..100", async () => {
    const markets = await explore({
      sort: "median_income",
      sort_direction: "asc",
      limit: 5,
      market_filters: { geo_type: "BespokeSubmarket" },
    });
    expect(markets).toHaveLength(5);
    const incomes = markets.map((m) => m.attributes.median_income as number);
    expect(incomes).toEqual([...incomes].sort((a, b) => a - b));
    for (const limit of [0, 101]) {
      const response = await t.client.as("demo-pro", "POST", "/v1/explore_markets", {
        json: { account_id: ACCOUNT.pro, limit },
      });
      expect(response.status).toBe(400);
    }
    const badSort = await t.client.as("demo-pro", "POST", "/v1/explore_markets", {
      json: { account_id: ACCOUNT.pro, sort: "name" },
    });
    expect(badSort.body).toMatchObject({ error: "Invalid sort parameter: name" });
  });

  it("narrows markets by geography and by metric bounds", async () => {
    const dallas = dataset.geography.boundaries.find((b) => b.name.startsWith("Dallas-Fort Worth"));
    const submarkets = await explore({
      market_filters: { geo_type: "BespokeSubmarket", msa_geo_boundary_id: dallas?.id },
    });
    expect(submarkets.map((m) => m.attributes.name).sort()).toEqual([
      "Dallas Northeast",
      "Dallas Northwest",
      "Dallas Southeast",
      "Dallas Southwest",
    ]);
    const texas = await explore({ market_filters: { states: ["TX"] } });
    expect(texas.every((m) => (m.attributes.geo_states as string[]).includes("TX"))).toBe(true);
    expect(texas.length).toBe(4);
    const pricey = await explore({ market_filters: { rent_avg_t30_gte: 2000 }, limit: 100 });
    expect(pricey.length).toBeGreaterThan(0);
    expect(pricey.every((m) => (m.attributes.rent_avg_t30 as number) >= 2000)).toBe(true);
  });

  it("aggregates only properties that pass the property-level filters", async () => {
    const [all] = await explore({ market_filters: { geo_boundary_ids: [1000] } });
    const [leaseUp] = await explore({
      market_filters: { geo_boundary_ids: [1000] },
      property_filters: { "unified_status[]": ["lease_up"] },
    });
    const expected = dataset.propertiesByBoundary
      .get(1000)
      ?.filter((p) => p.unifiedStatus === "lease_up").length;
    expect(leaseUp?.attributes.property_count_total).toBe(expected);
    expect(all?.attributes.property_count_total).toBe(dataset.propertiesByBoundary.get(1000)?.length);
  });

  it("says `Invalid filter parameter: <name>` for unknown filters, including construction_state[]", async () => {
    for (const [json, name] of [
      [{ market_filters: { population: 5 } }, "population"],
      [{ property_filters: { "construction_state[]": ["existing"] } }, "construction_state[]"],
    ] as const) {
      const response = await t.client.as("demo-pro", "POST", "/v1/explore_markets", {
        json: { account_id: ACCOUNT.pro, ...json },
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: `Invalid filter parameter: ${name}` });
    }
  });

  it("no longer returns absorption_rate_avg_t30", async () => {
    const [market] = await explore({ limit: 1 });
    expect(market?.attributes).not.toHaveProperty("absorption_rate_avg_t30");
  });
});

describe("GET /markets/narratives", () => {
  const submarket = dataset.geography.boundaries.find((b) => b.geoType === "BespokeSubmarket");
  const zip = dataset.geography.boundaries.find((b) => b.geoType === "ZipCode");

  it("returns one narrative for MSAs and submarkets and none for other types", async () => {
    for (const [boundaryId, count] of [
      [1000, 1],
      [submarket?.id, 1],
      [zip?.id, 0],
    ] as const) {
      const response = await t.client.as<{
        data: { attributes: { geo_boundary_id: number; analysis_date: string } }[];
      }>(
        "demo-base",
        "GET",
        `/v1/markets/narratives?account_id=${ACCOUNT.base}&geo_boundary_id=${boundaryId}`,
      );
      expect(response.status).toBe(200);
      expect(response.body.data).toHaveLength(count);
      if (count)
        expect(response.body.data[0]?.attributes).toMatchObject({
          geo_boundary_id: boundaryId,
          analysis_date: "2026-03-01",
        });
    }
  });

  it("truncates the sales section without pro-plus access", async () => {
    const sales = async (clientId: string, account: number) => {
      const response = await t.client.as<{ data: { attributes: { sales: string } }[] }>(
        clientId,
        "GET",
        `/v1/markets/narratives?account_id=${account}&geo_boundary_id=1000`,
      );
      return response.body.data[0]?.attributes.sales ?? "";
    };
    const full = await sales("demo-proplus", ACCOUNT.proPlus);
    const cut = await sales("demo-pro", ACCOUNT.pro);
    expect(full).not.toContain(TRUNCATION_MARKER);
    expect(cut.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(full.startsWith(cut.slice(0, -TRUNCATION_MARKER.length))).toBe(true);
    expect(cut.length).toBeLessThan(full.length);
  });
});
