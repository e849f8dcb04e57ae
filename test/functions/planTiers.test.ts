/**
 * Plan-aware cells: what a base-tier sign-in's plan leaves out says so in its own cell ("#N/A Not in your plan
 * (pro)"), never a blank that reads as missing data or as zero. The same formulas run signed in as pro and as base
 * against one sandbox; wherever pro's cell has a value, base's cell has a value or a plan message.
 */
import { CONTRACT_OPERATIONS } from "../../src/api/contractOperations";
import { FIELD_CATALOGUE } from "../../src/api/fieldCatalogue";
import { catalogueFields } from "../../src/api/fieldFacts";
import { forecast, geoForecast } from "../../src/functions/forecastFunctions";
import { market, markets, narrative } from "../../src/functions/marketFunctions";
import { lookup, properties, property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { planText } from "../../src/taskpane/planPanel";
import { HOST_PROFILES, supportsSet } from "../host/profiles";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

type Grid = unknown[][];
type Envelope<T> = { id: string; attributes: T };

let env: SignedInSandbox;
let msaId: number;
let propertyIds: number[];

/** A function's cells: its grid, or its one error as a one-cell grid. */
async function cellsOf(result: Promise<Grid>): Promise<Grid> {
  try {
    return await result;
  } catch (error) {
    return [[error]];
  }
}

const blank = (cell: unknown) => cell === "" || cell === null || cell === undefined;
const isError = (cell: unknown): cell is { code: string; message: string } =>
  cell instanceof CustomFunctions.Error;

/** Every market metric with a number (identity and text fields aside). */
const MARKET_METRICS = Object.entries(FIELD_CATALOGUE.market)
  .filter(([, facts]) => !["text", "identifier", "coordinate"].includes(facts.unit))
  .map(([field]) => field);

/** The formulas an underwriter's workbook holds, one of each RENT function that reads market or property data. */
const FORMULAS: Record<string, () => Promise<Grid>> = {
  "RENT.MARKET(msa, every metric)": () => market([[msaId]], [MARKET_METRICS], undefined, fakeInvocation()),
  "RENT.MARKET(name, concessions and growth)": () =>
    market(
      [["Austin"]],
      [["concession_percent_avg_t30", "rent_growth_rate_yoy_avg", "new_supply_unit_count_total"]],
      undefined,
      fakeInvocation(),
    ),
  // A name with its state reads the markets' geo_states, which the limited record below pro keeps.
  "RENT.MARKET(name with state)": () =>
    market([["Austin, TX"]], [["rent_avg_t30", "concession_percent_avg_t30"]], undefined, fakeInvocation()),
  "RENT.MARKET(msa) whole record": () => market([[msaId]], undefined, undefined, fakeInvocation()),
  "RENT.MARKETS(metrics)": () =>
    markets(
      [
        [
          "rent_avg_t30, concession_percent_avg_t30, rent_growth_rate_yoy_avg, under_construction_unit_count_total",
        ],
      ],
      [["limit=5"]],
      undefined,
      fakeInvocation(),
    ),
  "RENT.PROPERTY(ids, fields)": () =>
    property(
      propertyIds.map((id) => [id]),
      [["asking_rent", "leased_percent", "year_built"]],
      fakeInvocation(),
    ),
  "RENT.PROPERTIES(msa)": () =>
    properties([[msaId]], [["property_id, asking_rent"]], [["max_results=5"]], undefined, fakeInvocation()),
  "RENT.LOOKUP(city)": () => lookup([["city=Austin; max_results=5"]], fakeInvocation()),
  "RENT.FORECAST(id)": () =>
    forecast(
      propertyIds[0],
      [["rent_growth_rate_yoy"]],
      undefined,
      "year",
      undefined,
      undefined,
      undefined,
      true,
      undefined,
      fakeInvocation(),
    ),
  "RENT.GEOFORECAST(msa)": () =>
    geoForecast(
      msaId,
      [["rent_growth_yoy, deliveries"]],
      undefined,
      "year",
      undefined,
      undefined,
      undefined,
      undefined,
      fakeInvocation(),
    ),
  "RENT.NARRATIVE(msa)": () => narrative(msaId, "rent", fakeInvocation()),
};

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro");
  const found = await env.raw.post<{ data: Envelope<{ id: number }>[] }>("/geo_boundaries/search", {
    account_id: env.accountId,
    query: "Austin",
    geo_type: ["MSA"],
    limit: 1,
  });
  msaId = found.data[0]?.attributes.id as number;
  propertyIds = (
    await env.raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: env.accountId,
      city: "Austin",
      per_page: 3,
    })
  ).data;
});

afterAll(() => env.close());

it("a base-tier sign-in leaves no RENT cell blank where pro has a value: each says the plan it needs", async () => {
  const pro: Record<string, Grid> = {};
  for (const [name, run] of Object.entries(FORMULAS)) pro[name] = await cellsOf(run());
  await env.signInAs("demo-base");
  let planCells = 0;
  let compared = 0;
  for (const [name, run] of Object.entries(FORMULAS)) {
    const base = await cellsOf(run());
    const proCells = pro[name] as Grid;
    for (const [row, cells] of proCells.entries()) {
      for (const [column, proCell] of cells.entries()) {
        if (blank(proCell) || isError(proCell)) continue;
        // A whole-call error (a function outside the plan) stands for every cell pro fills.
        const baseCell =
          base.length === 1 && base[0]?.length === 1 && isError(base[0][0])
            ? base[0][0]
            : base[row]?.[column];
        compared++;
        expect({ name, row, column, blank: blank(baseCell) }).toEqual({ name, row, column, blank: false });
        if (isError(baseCell)) {
          expect({ name, code: baseCell.code, message: baseCell.message }).toEqual({
            name,
            code: "#N/A",
            message: expect.stringMatching(/^Not in your plan \(pro\): /),
          });
          planCells++;
        }
      }
    }
  }
  expect(compared).toBeGreaterThan(MARKET_METRICS.length);
  expect(planCells).toBeGreaterThan(MARKET_METRICS.length / 2);
});

it("says which metric needs which plan, in its own cell", async () => {
  await env.signInAs("demo-base");
  const [[rent, concession]] = (await market(
    [[msaId]],
    [["rent_avg_t30", "concession_percent_avg_t30"]],
    undefined,
    fakeInvocation(),
  )) as [[unknown, { code: string; message: string }]];
  expect(typeof rent).toBe("number");
  expect(concession).toMatchObject({
    code: "#N/A",
    message: "Not in your plan (pro): concession_percent_avg_t30 needs the pro tier.",
  });
  await expect(property([[propertyIds[0]]], [["asking_rent"]], fakeInvocation())).rejects.toMatchObject({
    code: "#N/A",
    message: expect.stringContaining("Not in your plan (pro): Details of many properties needs the pro tier"),
  });
  await env.signInAs("demo-pro");
  await expect(property([[propertyIds[0]]], [["last_sale_price"]], fakeInvocation())).rejects.toMatchObject({
    code: "#N/A",
    message: "Not in your plan (pro-plus): last_sale_price needs the pro-plus tier.",
  });
});

it("names no service path in a cell's message: every RENT formula's errors, signed in as base and as pro", async () => {
  // The contract's paths ("/properties/bulk_details", "/geo_boundary/{id}/forecasts") by their first segment.
  const segments = [...new Set(CONTRACT_OPERATIONS.map((operation) => operation.path.split("/")[1]))];
  const servicePath = new RegExp(`/(${segments.join("|")})\\b`);
  const messages: string[] = [];
  for (const client of ["demo-base", "demo-pro"]) {
    await env.signInAs(client);
    for (const run of Object.values(FORMULAS))
      for (const cell of (await cellsOf(run())).flat()) if (isError(cell)) messages.push(cell.message);
  }
  expect(messages.filter((message) => message.startsWith("Not in your plan")).length).toBeGreaterThan(3);
  expect(messages.filter((message) => servicePath.test(message))).toEqual([]);
  await env.signInAs("demo-pro");
});

it("names the plan on the Account tab from what the sign-in's own formulas met, at no request of its own", async () => {
  const planAfterAProperty = async (client: string) => {
    await env.signInAs(client);
    const { plan } = session.requireSignedIn().client;
    const before = planText(plan);
    const requests = env.sandbox.counters.get("/v1/properties/bulk_details");
    await cellsOf(property([[propertyIds[0]]], [["asking_rent"]], fakeInvocation()));
    expect(env.sandbox.counters.get("/v1/properties/bulk_details") - requests).toBe(1);
    return [before, planText(plan)];
  };
  const unknown =
    "Plan: not known yet. The service names no plan; the first property, lookup or forecast formula shows it.";
  expect(await planAfterAProperty("demo-base")).toEqual([
    unknown,
    "Plan: base (as the service's answers show it).",
  ]);
  expect(await planAfterAProperty("demo-pro")).toEqual([
    unknown,
    "Plan: pro (as the service's answers show it).",
  ]);
  expect(await planAfterAProperty("demo-proplus")).toEqual([
    unknown,
    "Plan: pro-plus (as the service's answers show it).",
  ]);
  await env.signInAs("demo-pro");
});

it("says a narrative's sales section cut below pro-plus is cut, and shows pro-plus the whole text", async () => {
  // The service cuts it and ends it in "..." (api-notes third pass), which alone reads as the whole section.
  await env.signInAs("demo-pro");
  const [[cut]] = (await narrative(msaId, "sales", fakeInvocation())) as [[string]];
  expect(cut).toMatch(/\.\.\. \(Not in your plan \(pro-plus\): the rest of this section\.\)$/);
  await env.signInAs("demo-proplus");
  const [[whole]] = (await narrative(msaId, "sales", fakeInvocation())) as [[string]];
  expect(whole).not.toContain("Not in your plan");
  expect(whole.startsWith(cut.slice(0, cut.indexOf("...")))).toBe(true);
  expect(whole.length).toBeGreaterThan(cut.indexOf("..."));
  await env.signInAs("demo-pro");
});

describe("entity cards on a host with data types", () => {
  type Card = { type: string; properties: Record<string, { type: string; basicValue: unknown }> };
  beforeEach(() => {
    const profile = HOST_PROFILES["m365-windows"];
    const isSetSupported = (name: string, version?: string) => supportsSet(profile, name, version);
    Object.assign(globalThis, { Office: { context: { requirements: { isSetSupported } } } });
  });
  afterEach(() => {
    delete (globalThis as { Office?: unknown }).Office;
  });

  it("show each field outside the plan as the plan it needs, never absent or blank", async () => {
    await env.signInAs("demo-pro");
    const [[card]] = (await property([[propertyIds[0]]], undefined, fakeInvocation())) as [[Card]];
    const proPlus = Object.entries(catalogueFields("property")).filter(
      ([, facts]) => facts.tier === "pro-plus",
    );
    expect(proPlus.length).toBeGreaterThan(0);
    for (const [field] of proPlus) {
      expect({ field, value: card.properties[field] }).toEqual({
        field,
        value: { type: "String", basicValue: "Not in your plan (pro-plus)" },
      });
    }
    expect(card.properties.unit_count?.basicValue).toEqual(expect.any(Number));

    await env.signInAs("demo-base");
    const [[marketCard]] = (await market([[msaId]], undefined, undefined, fakeInvocation())) as [[Card]];
    expect(marketCard.properties.concession_percent_avg_t30).toEqual({
      type: "String",
      basicValue: "Not in your plan (pro)",
    });
    expect(typeof marketCard.properties.rent_avg_t30?.basicValue).toBe("number");
  });
});
