/**
 * Names or ids wherever a market or property is asked, through one resolver (src/functions/args/nameResolver.ts):
 * a property name resolves to its id (one lookup request, cached), a name several properties share is refused
 * with candidates' ids and addresses, a name nothing matches is #N/A with the reason; markets and areas are
 * taken by name in RENT.NARRATIVE, RENT.MARKETS and RENT.BOUNDARIES too.
 */
import { forecast } from "../../src/functions/forecastFunctions";
import { boundaries } from "../../src/functions/geoFunctions";
import { market, markets, narrative } from "../../src/functions/marketFunctions";
import { properties, property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

interface Attributes {
  property_id: number;
  property_name: string;
  address: string;
  city: string;
}

let env: SignedInSandbox;
let msaId: number;
/** A name exactly one property has, though other names may contain it. */
let unique: Attributes;
/** A name several properties have exactly, and their ids. */
let shared: { name: string; ids: number[] };

const LOOKUP = "/v1/properties/lookup";
const DETAILS = "/v1/properties/bulk_details";
const requests = () => env.sandbox.counters.get(LOOKUP) + env.sandbox.counters.get(DETAILS);

async function idsNamed(name: string): Promise<number[]> {
  const found = await env.raw.get<{ data: number[] }>("/properties/lookup", {
    account_id: env.accountId,
    property_name: name,
    per_page: 200,
  });
  if (found.data.length === 0) return [];
  const details = await env.raw.get<{ data: { attributes: Attributes }[] }>("/properties/bulk_details", {
    account_id: env.accountId,
    property_ids: found.data.join(","),
  });
  return details.data
    .filter((entry) => entry.attributes.property_name.toLowerCase() === name.toLowerCase())
    .map((entry) => entry.attributes.property_id);
}

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro");
  const search = await env.raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
    account_id: env.accountId,
    query: "Austin",
    geo_type: ["MSA"],
    limit: 1,
  });
  msaId = search.data[0]?.attributes.id as number;
  const ids = (
    await env.raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: env.accountId,
      city: "Austin",
      per_page: 30,
    })
  ).data;
  const records = (
    await env.raw.get<{ data: { attributes: Attributes }[] }>("/properties/bulk_details", {
      account_id: env.accountId,
      property_ids: ids.join(","),
    })
  ).data.map((entry) => entry.attributes);
  for (const record of records) {
    const named = await idsNamed(record.property_name);
    if (named.length === 1 && unique === undefined) unique = record;
    if (named.length > 1 && shared === undefined) shared = { name: record.property_name, ids: named };
    if (unique && shared) break;
  }
  if (!unique || !shared) throw new Error("the sandbox's Austin properties have no unique and shared name");
  await env.sandbox.counters.reset();
});

afterAll(() => env.close());

it("takes a property by name as by id, for one lookup request, and asks nothing again for the same name", async () => {
  const fields = [["property_id", "asking_rent", "address"]];
  const byId = await property([[unique.property_id]], fields, fakeInvocation());
  const before = requests();
  const byName = await property([[unique.property_name]], fields, fakeInvocation());
  expect(byName).toEqual(byId);
  expect(env.sandbox.counters.get(LOOKUP)).toBe(1);
  // One lookup; when other names contain this one, the candidates' records too (one batched request).
  expect(requests() - before).toBeLessThanOrEqual(2);
  const again = requests();
  await expect(property([[unique.property_name]], [["unit_count"]], fakeInvocation())).resolves.toEqual(
    await property([[unique.property_id]], [["unit_count"]], fakeInvocation()),
  );
  expect(requests() - again).toBe(0);
});

it("refuses a name several properties share, listing candidates with id and address", async () => {
  const [first] = shared.ids;
  const details = await env.raw.get<{ data: { attributes: Attributes }[] }>("/properties/bulk_details", {
    account_id: env.accountId,
    property_ids: String(first),
  });
  const record = details.data[0]?.attributes as Attributes;
  const error = await property([[shared.name]], [["asking_rent"]], fakeInvocation()).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: "#VALUE!" });
  const { message } = error as { message: string };
  expect(message).toMatch(
    new RegExp(`^property_id: ambiguous: ${shared.ids.length} properties named "${shared.name}": `),
  );
  expect(message).toContain(`${record.property_id} ${shared.name} (${record.address}, ${record.city}, `);
  expect(message).toContain(`Use the id: =RENT.PROPERTY(${first}, …).`);
});

it("describes the candidates of a name no property has exactly from one batched read of at most ten records, charged once", async () => {
  // The lookup answers ids only (the contract's /properties/lookup), so telling the exact name apart and
  // describing candidates needs their records: one bulk details request for at most ten, cached after.
  // "e" is in most names: far more than ten match, and only ten are read.
  const broad = "e";
  const lookup = await env.raw.get<{ data: number[]; pagination: { total_count: number } }>(
    "/properties/lookup",
    { account_id: env.accountId, property_name: broad, per_page: 10 },
  );
  expect(lookup.pagination.total_count).toBeGreaterThan(lookup.data.length);
  const quota = () => env.sandbox.context.quota.usageOf(env.accountId);
  await session.requireSignedIn().data.clearCache();
  const lookups = env.sandbox.counters.get(LOOKUP);
  const details = env.sandbox.counters.get(DETAILS);
  const used = quota();
  await expect(property([[broad]], [["asking_rent"]], fakeInvocation())).rejects.toMatchObject({
    code: "#N/A",
    message: expect.stringContaining(
      `No property named "e". ${lookup.pagination.total_count} contain it (the first 10: `,
    ),
  });
  expect(env.sandbox.counters.get(LOOKUP) - lookups).toBe(1);
  expect(env.sandbox.counters.get(DETAILS) - details).toBe(1);
  expect(quota() - used).toBe(lookup.data.length);
  // Asked again (another cell, a recalculation): nothing goes to the service, nothing is charged.
  const again = requests();
  const usedAgain = quota();
  await expect(property([[broad]], [["unit_count"]], fakeInvocation())).rejects.toMatchObject({
    code: "#N/A",
  });
  expect(requests() - again).toBe(0);
  expect(quota() - usedAgain).toBe(0);
});

it("takes a market or area named with its state, the state narrowing the match; a wrong state says where", async () => {
  const metric = [["rent_avg_t30"]];
  // The state is read from the places' names ("Austin-Round Rock-Georgetown, TX"): one search of the name,
  // and RENT.MARKET's own read of the market's record.
  await session.requireSignedIn().data.clearCache();
  const searches = env.sandbox.counters.get("/v1/geo_boundaries/search");
  const explored = env.sandbox.counters.get("/v1/explore_markets");
  const inTexas = await market([["Austin, TX"]], metric, undefined, fakeInvocation());
  expect(env.sandbox.counters.get("/v1/geo_boundaries/search") - searches).toBe(1);
  expect(env.sandbox.counters.get("/v1/explore_markets") - explored).toBe(1);
  const byName = await market([["Austin"]], metric, undefined, fakeInvocation());
  expect(inTexas).toEqual(byName);
  for (const typed of ["Austin, TX", "Austin TX", "austin, tx"]) {
    await expect(market([[typed]], metric, undefined, fakeInvocation())).resolves.toEqual(byName);
  }
  await expect(market([["Austin, CA"]], metric, undefined, fakeInvocation())).rejects.toMatchObject({
    code: "#N/A",
    message:
      'No MSA or submarket named "Austin" in CA. "Austin" is in TX: ' +
      `Austin-Round Rock-Georgetown, TX (MSA, id ${msaId}). For it, use the id: =RENT.MARKET(${msaId}, …).`,
  });
  // RENT.PROPERTIES takes every kind of area: "Austin, TX" is the city named exactly so, not the metro.
  const city = (
    await env.raw.post<{ data: { attributes: { id: number; name: string } }[] }>("/geo_boundaries/search", {
      account_id: env.accountId,
      query: "Austin",
      geo_type: ["CensusPlace"],
      limit: 1,
    })
  ).data[0]?.attributes;
  expect(city?.name).toBe("Austin, TX");
  const area = (value: unknown) =>
    properties([[value]], [["property_id"]], [["max_results=5"]], undefined, fakeInvocation());
  await expect(area("Austin, TX")).resolves.toEqual(await area(city?.id));
  await expect(area("austin tx")).resolves.toEqual(await area(city?.id));
  await expect(area("Austin, CA")).rejects.toMatchObject({
    code: "#N/A",
    message: expect.stringMatching(/^No place named "Austin" in CA\. "Austin" is in TX: /),
  });
  // In a list the state stays with its name: "Austin, TX; id" is two areas, not three.
  const both = await area(`Austin, TX; ${city?.id}`);
  expect(both).toEqual(await area(city?.id));
});

it("gives #N/A with the reason for a name nothing matches, and each cell of a block its own answer", async () => {
  await expect(property([["Zzyzx Qqq Towers"]], [["asking_rent"]], fakeInvocation())).rejects.toMatchObject({
    code: "#N/A",
    message: expect.stringMatching(/^No property named "Zzyzx Qqq Towers"/),
  });
  const block = await property(
    [[unique.property_id], [unique.property_name], ["Zzyzx Qqq Towers"]],
    [["property_id"]],
    fakeInvocation(),
  );
  expect(block[0]).toEqual([unique.property_id]);
  expect(block[1]).toEqual([unique.property_id]);
  expect(block[2]?.[0]).toMatchObject({ code: "#N/A" });
});

it("takes a property name in RENT.FORECAST", async () => {
  const args = [
    "rent_growth_rate_yoy",
    undefined,
    "year",
    undefined,
    undefined,
    undefined,
    true,
    undefined,
  ] as const;
  const byId = await forecast(unique.property_id, [[args[0]]], ...args.slice(1), fakeInvocation());
  const byName = await forecast(unique.property_name, [[args[0]]], ...args.slice(1), fakeInvocation());
  expect(byName).toEqual(byId);
});

it("RENT.MARKETS without a geo_type asks for MSAs, but for the markets boundary_ids names whatever their type", async () => {
  // What the add-in sends, not only what the sandbox answers: the live service's choice without a type is
  // not specified, so the add-in must name the type itself unless it names the markets.
  const sentFilters: unknown[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const request = input instanceof Request ? input.clone() : new Request(input, init);
    if (request.url.endsWith("/explore_markets"))
      sentFilters.push(((await request.json()) as { market_filters?: unknown }).market_filters);
    return realFetch(input, init);
  };
  try {
    const submarket = (
      await env.raw.post<{ data: { attributes: { id: number; name: string; geo_type: string } }[] }>(
        "/geo_boundaries/search",
        { account_id: env.accountId, query: "Austin", geo_type: ["BespokeSubmarket"], limit: 1 },
      )
    ).data[0]?.attributes;
    expect(submarket?.geo_type).toBe("BespokeSubmarket");
    const named = await markets(
      [["rent_avg_t30"]],
      [[`boundary_ids=${submarket?.name}`]],
      undefined,
      fakeInvocation(),
    );
    expect(named.slice(1).map((row) => row.slice(0, 3))).toEqual([
      [submarket?.id, submarket?.name, "BespokeSubmarket"],
    ]);
    expect(sentFilters).toEqual([{ geo_boundary_ids: [submarket?.id] }]);

    const unnamed = await markets([["rent_avg_t30"]], undefined, undefined, fakeInvocation());
    expect([...new Set(unnamed.slice(1).map((row) => row[2]))]).toEqual(["MSA"]);
    expect(sentFilters[1]).toEqual({ geo_type: "MSA" });
  } finally {
    globalThis.fetch = realFetch;
  }
});

it("takes a market by name in RENT.NARRATIVE, RENT.MARKETS (msa_id, boundary_ids) and RENT.BOUNDARIES", async () => {
  await expect(narrative("Austin", "rent", fakeInvocation())).resolves.toEqual(
    await narrative(msaId, "rent", fakeInvocation()),
  );
  const submarkets = (options: string) =>
    markets([["rent_avg_t30"]], [[`geo_type=BespokeSubmarket; ${options}`]], undefined, fakeInvocation());
  await expect(submarkets("msa_id=Austin")).resolves.toEqual(await submarkets(`msa_id=${msaId}`));
  const msas = (ids: string) =>
    markets([["rent_avg_t30"]], [[`boundary_ids=${ids}`]], undefined, fakeInvocation());
  await expect(msas("Austin")).resolves.toEqual(await msas(String(msaId)));
  await expect(
    boundaries("*", [["ZipCode"]], 5, "Austin-Round Rock-Georgetown, TX", fakeInvocation()),
  ).resolves.toEqual(await boundaries("*", [["ZipCode"]], 5, msaId, fakeInvocation()));
  await expect(narrative("Zzyzxqq", undefined, fakeInvocation())).rejects.toMatchObject({
    code: "#N/A",
    message: 'No MSA or submarket named "Zzyzxqq".',
  });
});
