import { boundaries, boundary } from "../../src/functions/geoFunctions";
import { market, markets, narrative } from "../../src/functions/marketFunctions";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

interface Envelope<T> {
  id: string;
  attributes: T;
}
type Boundary = { id: number; name: string; geo_type: string; centroid: [number, number] };
type Market = Record<string, unknown> & { id: number; name: string };

let env: SignedInSandbox;
const search = (body: Record<string, unknown>) =>
  env.raw.post<{ data: Envelope<Boundary>[] }>("/geo_boundaries/search", {
    account_id: env.accountId,
    ...body,
  });
const explore = (body: Record<string, unknown>) =>
  env.raw.post<{ data: Envelope<Market>[] }>("/explore_markets", { account_id: env.accountId, ...body });

beforeAll(async () => {
  env = await startSignedInSandbox("demo-proplus");
});

afterAll(() => env.close());

describe("RENT.BOUNDARIES and RENT.BOUNDARY", () => {
  it("spills the service's matches in its order, with the centroid as latitude and longitude", async () => {
    const raw = await search({ query: "Austin", limit: 5 });
    const table = await boundaries("Austin", undefined, 5, undefined, fakeInvocation());
    const header = table[0] as string[];
    expect(header).toEqual(expect.arrayContaining(["id", "name", "geo_type", "latitude", "longitude"]));
    const at = (name: string) => header.indexOf(name);
    expect(table.slice(1).map((row) => row[at("id")])).toEqual(raw.data.map((entry) => entry.attributes.id));
    expect(table.slice(1).map((row) => row[at("latitude")])).toEqual(
      raw.data.map((entry) => entry.attributes.centroid[0]),
    );
  });

  it("filters by geo types given as text in any case", async () => {
    const raw = await search({ query: "Austin", geo_type: ["MSA", "BespokeSubmarket"], limit: 10 });
    const table = await boundaries("Austin", [["msa, bespokesubmarket"]], 10, undefined, fakeInvocation());
    expect(table.slice(1).map((row) => row[0])).toEqual(raw.data.map((entry) => entry.attributes.id));
    await expect(boundaries("Austin", [["City"]], 10, undefined, fakeInvocation())).rejects.toMatchObject({
      code: "#VALUE!",
      message:
        'geo_types must be one of MSA, BespokeSubmarket, CensusPlace, ZipCode, County, Neighborhood, not "City".',
    });
    await expect(boundaries("Austin", undefined, 5000, undefined, fakeInvocation())).rejects.toMatchObject({
      code: "#VALUE!",
      message: "limit must be a whole number from 1 to 1000, not 5000.",
    });
  });

  it("gives the id of the one boundary named so, never a metro that only lists the name; #N/A when none is", async () => {
    const raw = await search({ query: "Austin", geo_type: ["MSA"], limit: 1 });
    await expect(boundary("Austin", "MSA", fakeInvocation())).resolves.toBe(raw.data[0]?.attributes.id);
    const cities = await search({ query: "Arlington", geo_type: ["CensusPlace"], limit: 5 });
    const virginia = cities.data.find((entry) => entry.attributes.name === "Arlington, VA")?.attributes.id;
    await expect(boundary("Arlington, VA", undefined, fakeInvocation())).resolves.toBe(virginia);
    await expect(boundary("Arlington", "MSA", fakeInvocation())).rejects.toMatchObject({
      code: "#N/A",
      message: expect.stringMatching(
        /^No MSA named "Arlington"\. .* is a city inside the metros: Dallas-Fort Worth/,
      ),
    });
    await expect(boundary("Zzyzxqq", undefined, fakeInvocation())).rejects.toMatchObject({
      code: "#N/A",
      message: 'No place named "Zzyzxqq".',
    });
  });
});

describe("RENT.MARKET", () => {
  let msaId: number;
  let submarketId: number;

  beforeAll(async () => {
    msaId = (await search({ query: "Austin", geo_type: "MSA", limit: 1 })).data[0]?.attributes.id as number;
    submarketId = (await search({ query: "Austin", geo_type: "BespokeSubmarket", limit: 1 })).data[0]
      ?.attributes.id as number;
  });

  it("returns the metric of an MSA given by id or by name", async () => {
    const raw = await explore({ market_filters: { geo_type: "MSA", geo_boundary_ids: [msaId] }, limit: 1 });
    const expected = raw.data[0]?.attributes.rent_avg_t30;
    expect(typeof expected).toBe("number");
    await expect(market([[msaId]], [["rent_avg_t30"]], undefined, fakeInvocation())).resolves.toEqual([
      [expected],
    ]);
    await expect(market([["Austin"]], [["rent_avg_t30"]], undefined, fakeInvocation())).resolves.toEqual([
      [expected],
    ]);
  });

  it("finds a submarket without being told its type", async () => {
    const raw = await explore({
      market_filters: { geo_type: "BespokeSubmarket", geo_boundary_ids: [submarketId] },
      limit: 1,
    });
    await expect(
      market([[submarketId]], [["leased_percent_avg_t30"]], undefined, fakeInvocation()),
    ).resolves.toEqual([[raw.data[0]?.attributes.leased_percent_avg_t30 ?? ""]]);
  });

  it("asks once for cells naming an MSA and a submarket by id", async () => {
    const [denverMsa] = (await search({ query: "Denver", geo_type: "MSA", limit: 1 })).data;
    const [denverSubmarket] = (await search({ query: "Denver", geo_type: "BespokeSubmarket", limit: 1 }))
      .data;
    const before = env.sandbox.counters.get("/v1/explore_markets");
    const [msaRent, submarketRent] = await Promise.all([
      market([[denverMsa?.attributes.id]], [["rent_avg_t30"]], undefined, fakeInvocation()),
      market([[denverSubmarket?.attributes.id]], [["rent_avg_t30"]], undefined, fakeInvocation()),
    ]);
    expect(env.sandbox.counters.get("/v1/explore_markets") - before).toBe(1);
    expect(msaRent).toEqual([[expect.any(Number)]]);
    expect(submarketRent).toEqual([[expect.any(Number)]]);
  });

  it("gives markets down a column by metrics across a row as one block, from one request", async () => {
    const found = await Promise.all(
      ["Dallas", "Houston", "Phoenix"].map(
        async (name) => (await search({ query: name, geo_type: ["MSA"], limit: 1 })).data[0]?.attributes.id,
      ),
    );
    const raw = await explore({ market_filters: { geo_type: "MSA", geo_boundary_ids: found }, limit: 3 });
    const metricsOf = (id: number | undefined) =>
      raw.data.find((entry) => entry.attributes.id === id)?.attributes;
    const expected = found.map((id) => [metricsOf(id)?.rent_avg_t30, metricsOf(id)?.leased_percent_avg_t30]);
    expect(expected.flat().every((value) => typeof value === "number")).toBe(true);

    const before = env.sandbox.counters.get("/v1/explore_markets");
    const metrics = [["rent_avg_t30", "leased_percent_avg_t30"]];
    const block = await market(
      found.map((id) => [id]),
      metrics,
      undefined,
      fakeInvocation(),
    );
    expect(block).toEqual(expected);
    expect(env.sandbox.counters.get("/v1/explore_markets") - before).toBe(1);

    // Names work as ids do; a name that matches no market fails its own row, not the block.
    // A blank cell (room left for more markets) gives a blank row.
    const named = await market([["Dallas"], ["Zzyzxqq"], [""]], [["rent_avg_t30, leased_percent_avg_t30"]]);
    expect(named[0]).toEqual(expected[0]);
    expect(named[2]).toEqual(["", ""]);
    // Alone, an empty market is a bad argument.
    await expect(market([[""]], [["rent_avg_t30"]])).rejects.toMatchObject({ code: "#VALUE!" });
    expect(named[1]).toEqual([
      expect.objectContaining({ code: "#N/A", message: 'No MSA or submarket named "Zzyzxqq".' }),
      expect.objectContaining({ code: "#N/A" }),
    ]);
  });

  it("refuses markets and metrics both as 2-D ranges, saying how to lay them out", async () => {
    await expect(
      market([[msaId, msaId]], [["rent_avg_t30"], ["ner_avg_t30"]], undefined, fakeInvocation()),
    ).rejects.toMatchObject({
      code: "#VALUE!",
      message:
        "With several markets and several fields, give the markets down a column and the fields across a row.",
    });
  });

  it("passes property filters through to the aggregates", async () => {
    const raw = await explore({
      market_filters: { geo_type: "MSA", geo_boundary_ids: [msaId] },
      property_filters: { property_class: ["A"] },
      limit: 1,
    });
    await expect(
      market([[msaId]], [["rent_avg_t30"]], [["property_class", "A"]], fakeInvocation()),
    ).resolves.toEqual([[raw.data[0]?.attributes.rent_avg_t30 ?? ""]]);
  });

  it("explains unknown and removed metrics, and boundaries that are not markets", async () => {
    await expect(market([[msaId]], [["rent_avg_t3"]], undefined, fakeInvocation())).rejects.toMatchObject({
      code: "#VALUE!",
      message: 'Unknown metric "rent_avg_t3". Did you mean "rent_avg_t30"?',
    });
    await expect(
      market([[msaId]], [["absorption_rate_avg_t30"]], undefined, fakeInvocation()),
    ).rejects.toMatchObject({
      code: "#VALUE!",
      message: expect.stringContaining("removed in v1.12.0"),
    });
    const county = (await search({ query: "*", geo_type: "County", limit: 1 })).data[0]?.attributes.id;
    await expect(market([[county]], [["rent_avg_t30"]], undefined, fakeInvocation())).rejects.toMatchObject({
      code: "#N/A",
      message: expect.stringContaining("has no market metrics"),
    });
  });
});

describe("RENT.MARKETS", () => {
  it("ranks markets like the service, with the asked metrics as columns", async () => {
    const raw = await explore({
      market_filters: { geo_type: "MSA" },
      sort: "rent_avg_t30",
      sort_direction: "desc",
      limit: 5,
    });
    const table = await markets(
      [["rent_avg_t30", "leased_percent_avg_t30"]],
      [["limit=5"]],
      undefined,
      fakeInvocation(),
    );
    expect(table[0]).toEqual(["id", "name", "geo_type", "rent_avg_t30", "leased_percent_avg_t30"]);
    expect(table.slice(1)).toEqual(
      raw.data.map(({ attributes: m }) => [
        m.id,
        m.name,
        m.geo_type,
        m.rent_avg_t30 ?? "",
        m.leased_percent_avg_t30 ?? "",
      ]),
    );
  });

  it("takes the words of the one vocabulary for a metric: asking_rent is rent_avg_t30, in RENT.MARKET and RENT.MARKETS", async () => {
    const byName = await market([["Austin"]], [["rent_avg_t30"]], undefined, fakeInvocation());
    expect(await market([["Austin"]], [["asking_rent"]], undefined, fakeInvocation())).toEqual(byName);
    const named = await markets([["rent_avg_t30"]], [["limit=5"]], undefined, fakeInvocation());
    expect(await markets([["Asking rent"]], [["limit=5"]], undefined, fakeInvocation())).toEqual(named);
    await expect(markets([["avg_rnt"]], [["limit=5"]], undefined, fakeInvocation())).rejects.toMatchObject({
      code: "#VALUE!",
      message: 'Unknown metric "avg_rnt". Did you mean "rent_avg_t30"?',
    });
  });

  it("takes market filters by their names and lets the service judge them", async () => {
    const raw = await explore({
      market_filters: { geo_type: "MSA", rent_avg_t30_gte: 1800 },
      sort: "rent_avg_t30",
      sort_direction: "asc",
      limit: 100,
    });
    const table = await markets(
      [["rent_avg_t30"]],
      [["rent_avg_t30_gte=1800; direction=asc; limit=100"]],
      undefined,
      fakeInvocation(),
    );
    expect(table.slice(1).map((row) => row[0])).toEqual(raw.data.map((entry) => entry.attributes.id));
    for (const row of table.slice(1)) expect(row[3]).toBeGreaterThanOrEqual(1800);
    await expect(
      markets([["rent_avg_t30"]], [["colour_gte=3"]], undefined, fakeInvocation()),
    ).rejects.toMatchObject({
      code: "#VALUE!",
      message: expect.stringContaining("colour_gte"),
    });
    await expect(
      markets([["rent_avg_t30"]], [["colour=3"]], undefined, fakeInvocation()),
    ).rejects.toMatchObject({
      code: "#VALUE!",
      message: expect.stringContaining('Unknown option "colour"'),
    });
  });
});

describe("RENT.NARRATIVE", () => {
  it("returns one section, or all of them as a table", async () => {
    const msa = (await search({ query: "Austin", geo_type: "MSA", limit: 1 })).data[0]?.attributes
      .id as number;
    const raw = await env.raw.get<{ data: Envelope<Record<string, string>>[] }>("/markets/narratives", {
      account_id: env.accountId,
      geo_boundary_id: msa,
    });
    const attributes = raw.data[0]?.attributes as Record<string, string>;
    await expect(narrative(msa, undefined, fakeInvocation())).resolves.toEqual([[attributes.overview]]);
    await expect(narrative(msa, "Rent", fakeInvocation())).resolves.toEqual([[attributes.rent]]);
    const all = await narrative(msa, "all", fakeInvocation());
    expect(all).toHaveLength(7);
    expect(all[5]).toEqual(["sales", attributes.sales]);
  });

  it("says #N/A with the reason for a boundary without narratives", async () => {
    const zip = (await search({ query: "*", geo_type: "ZipCode", limit: 1 })).data[0]?.attributes.id;
    await expect(narrative(zip, undefined, fakeInvocation())).rejects.toMatchObject({
      code: "#N/A",
      message: expect.stringContaining("narratives exist for MSAs and submarkets"),
    });
  });
});
