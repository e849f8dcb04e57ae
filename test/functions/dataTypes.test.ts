/**
 * Values that carry their meaning: where the host holds data types in custom functions (CustomFunctionsRuntime
 * 1.4), rents, percents and dates come back as numbers carrying their format and a whole record as an entity
 * card; elsewhere (Office 2024 / LTSC, which report ExcelApi 1.17 but not CustomFunctionsRuntime 1.4) the same
 * calls give plain values. The host's answer is Office.context.requirements.isSetSupported, installed here per
 * test from the host profiles of the stand-in (test/host/profiles.ts, sources in docs/hosts.md).
 */
import { NUMBER_FORMAT_BY_KIND } from "../../src/tables/columnKinds";
import { isoToSerial } from "../../src/tables/excelDates";
import { forecast } from "../../src/functions/forecastFunctions";
import { market } from "../../src/functions/marketFunctions";
import { properties, property } from "../../src/functions/propertyFunctions";
import { HOST_PROFILES, supportsSet, type HostProfile } from "../host/profiles";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

type Attributes = Record<string, unknown>;

let env: SignedInSandbox;
let id: number;
let record: Attributes;
let msaId: number;
let marketRecord: Attributes;

/** Office.context.requirements as the host of a profile answers. */
function hostAs(profile: HostProfile): void {
  const isSetSupported = (name: string, version?: string) => supportsSet(profile, name, version);
  Object.assign(globalThis, { Office: { context: { requirements: { isSetSupported } } } });
}

/** Microsoft 365 on Windows from Version 2208 to 2503: data types, but before ExcelApi 1.19. */
const M365_BEFORE_1_19: HostProfile = {
  ...HOST_PROFILES["m365-windows"],
  requirementSets: {
    ...HOST_PROFILES["m365-windows"].requirementSets,
    ExcelApi: "1.18",
    CustomFunctionsRuntime: "1.4",
  },
};

afterEach(() => {
  delete (globalThis as { Office?: unknown }).Office;
});

beforeAll(async () => {
  env = await startSignedInSandbox("demo-proplus");
  const ids = (
    await env.raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: env.accountId,
      city: "Austin",
      per_page: 20,
    })
  ).data;
  const records = (
    await env.raw.get<{ data: { attributes: Attributes }[] }>("/properties/bulk_details", {
      account_id: env.accountId,
      property_ids: ids.join(","),
    })
  ).data.map((entry) => entry.attributes);
  // A property whose rent and occupancy are known, so the formats have numbers to carry.
  record = records.find(
    (candidate) => typeof candidate.asking_rent === "number" && typeof candidate.leased_percent === "number",
  ) as Attributes;
  id = record.property_id as number;
  const msa = await env.raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
    account_id: env.accountId,
    query: "Austin",
    geo_type: "MSA",
    limit: 1,
  });
  msaId = msa.data[0]?.attributes.id as number;
  marketRecord = (
    await env.raw.post<{ data: { attributes: Attributes }[] }>("/explore_markets", {
      account_id: env.accountId,
      market_filters: { geo_type: "MSA", geo_boundary_ids: [msaId] },
      limit: 1,
    })
  ).data[0]?.attributes as Attributes;
});

afterAll(() => env.close());

const formatted = (basicValue: unknown, numberFormat: string) => ({
  type: "FormattedNumber",
  basicValue,
  numberFormat,
});

/** What a scalar field of the service's record reads as in a cell: dates as serials, nulls as "". */
function cellOf(value: unknown): unknown {
  if (value === null) return "";
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) return isoToSerial(value);
  return value;
}

/** An entity property's plain value. */
const basic = (property: { basicValue: unknown }) => property.basicValue;

describe("on a host with data types from ExcelApi 1.19 (Microsoft 365 today)", () => {
  beforeEach(() => hostAs(HOST_PROFILES["m365-windows"]));

  it("returns a Double carrying its number format, FormattedNumber being deprecated there", async () => {
    const [row] = await property([[id]], [["asking_rent", "property_id"]], fakeInvocation());
    expect(row).toEqual([
      { type: "Double", basicValue: record.asking_rent, numberFormat: NUMBER_FORMAT_BY_KIND.currency },
      id,
    ]);
  });
});

describe("on a host with data types before ExcelApi 1.19 (FormattedNumber)", () => {
  beforeEach(() => hostAs(M365_BEFORE_1_19));

  it("formats rents as currency, percents as percents and dates as dates; ids stay plain", async () => {
    const fields = [["asking_rent", "leased_percent", "collected_at", "property_id"]];
    const [row] = await property([[id]], fields, fakeInvocation());
    expect(row).toEqual([
      formatted(record.asking_rent, NUMBER_FORMAT_BY_KIND.currency),
      formatted(record.leased_percent, NUMBER_FORMAT_BY_KIND.percent),
      formatted(isoToSerial(record.collected_at as string), NUMBER_FORMAT_BY_KIND.date),
      id,
    ]);
    expect(NUMBER_FORMAT_BY_KIND.currency).toMatch(/^\$#,##0/);
  });

  it("formats each spilled column by its kind, headers as text", async () => {
    const table = await properties(
      [[msaId]],
      [["property_id", "asking_rent", "leased_percent"]],
      [["max_results", 3]],
    );
    expect(table[0]).toEqual(["property_id", "asking_rent", "leased_percent"]);
    const rows = table.slice(1);
    expect(rows.length).toBe(3);
    for (const row of rows) expect(typeof row[0]).toBe("number");
    // An unknown value stays an empty cell; every known one carries its column's format.
    const known = (column: number) => rows.map((row) => row[column]).filter((cell) => cell !== "");
    expect(known(1).length + known(2).length).toBeGreaterThan(0);
    for (const cell of known(1))
      expect(cell).toMatchObject({ type: "FormattedNumber", numberFormat: NUMBER_FORMAT_BY_KIND.currency });
    for (const cell of known(2))
      expect(cell).toMatchObject({ type: "FormattedNumber", numberFormat: NUMBER_FORMAT_BY_KIND.percent });
  });

  it("gives RENT.PROPERTY(id) with no field an entity card holding every field of the record", async () => {
    const [[card]] = (await property([[id]], undefined, fakeInvocation())) as [
      [{ type: string; text: string; properties: Record<string, { basicValue: unknown }> }],
    ];
    expect(card.type).toBe("Entity");
    expect(card.text).toBe(record.property_name);
    const scalars = Object.entries(record).filter(([, value]) => value === null || typeof value !== "object");
    expect(scalars.length).toBeGreaterThan(10);
    for (const [field, value] of scalars) {
      expect({ field, value: card.properties[field] && basic(card.properties[field]) }).toEqual({
        field,
        value: cellOf(value),
      });
    }
    expect(card.properties.asking_rent).toEqual(
      formatted(record.asking_rent, NUMBER_FORMAT_BY_KIND.currency),
    );
    // Its as-of: the record's own collected_at above, and when the answer was fetched (an Excel date-time, local).
    const nowSerial = (Date.now() - new Date().getTimezoneOffset() * 60_000) / 86_400_000 + 25_569;
    const fetchedAt = card.properties.fetched_at as {
      type: string;
      basicValue: number;
      numberFormat: string;
    };
    expect(fetchedAt.type).toBe("FormattedNumber");
    expect(Math.abs(fetchedAt.basicValue - nowSerial)).toBeLessThan(1 / 24);
    expect(fetchedAt.numberFormat).toBe("yyyy-mm-dd hh:mm:ss");
  });

  it("gives ids down a column a card each, and a missing property its own #N/A", async () => {
    const cards = await property([[id], [999_999_999]], undefined, fakeInvocation());
    expect(cards).toHaveLength(2);
    expect(cards[0]?.[0]).toMatchObject({ type: "Entity", text: record.property_name });
    expect(cards[1]?.[0]).toMatchObject({ code: "#N/A" });
  });

  it("gives RENT.MARKET(boundary) with no metric an entity card of the market", async () => {
    const cells = await market([[msaId]], undefined, undefined, fakeInvocation());
    expect(cells).toHaveLength(1);
    const card = cells[0]?.[0] as {
      type: string;
      text: string;
      properties: Record<string, { basicValue: unknown }>;
    };
    expect(card.type).toBe("Entity");
    expect(card.text).toBe(marketRecord.name);
    expect(basic(card.properties.rent_avg_t30 as { basicValue: unknown })).toBe(marketRecord.rent_avg_t30);
    // When the market's answer was fetched, as a property card says it.
    const nowSerial = (Date.now() - new Date().getTimezoneOffset() * 60_000) / 86_400_000 + 25_569;
    const fetchedAt = card.properties.fetched_at as { type: string; basicValue: number };
    expect(fetchedAt.type).toBe("FormattedNumber");
    expect(Math.abs(fetchedAt.basicValue - nowSerial)).toBeLessThan(1 / 24);
    await expect(market([[msaId]], [["rent_avg_t30"]], undefined, fakeInvocation())).resolves.toEqual([
      [formatted(marketRecord.rent_avg_t30, NUMBER_FORMAT_BY_KIND.currency)],
    ]);
  });

  it("formats a forecast's dates as dates, and its rent as currency when use_rent_value asks for rent", async () => {
    const table = await forecast(id, [["rent_growth_rate_yoy"]], null, "year", null, null, true, true);
    expect(table[1]?.[0]).toMatchObject({
      type: "FormattedNumber",
      numberFormat: NUMBER_FORMAT_BY_KIND.date,
    });
    const rents = table
      .slice(1)
      .map((row) => row[1])
      .filter((cell) => cell !== "");
    expect(rents.length).toBeGreaterThan(0);
    for (const rent of rents)
      expect(rent).toMatchObject({ type: "FormattedNumber", numberFormat: NUMBER_FORMAT_BY_KIND.currency });
  });

  it("reads a formatted number or an entity given back as an argument by its plain value", async () => {
    const asArgument = { type: "FormattedNumber", basicValue: id, numberFormat: "0" };
    await expect(property([[asArgument]], [["asking_rent"]], fakeInvocation())).resolves.toEqual([
      [formatted(record.asking_rent, NUMBER_FORMAT_BY_KIND.currency)],
    ]);
    const marketCard = await market([[msaId]], undefined, undefined, fakeInvocation());
    await expect(market([[msaId]], [[{ type: "String", basicValue: "rent_avg_t30" }]])).resolves.toEqual([
      [formatted(marketRecord.rent_avg_t30, NUMBER_FORMAT_BY_KIND.currency)],
    ]);
    expect(marketCard).toMatchObject([[{ type: "Entity" }]]);
  });
});

describe.each([
  ["Office 2024 / LTSC (ExcelApi 1.17, no CustomFunctionsRuntime 1.4)", HOST_PROFILES["office2024-windows"]],
  [
    "a host before ExcelApi 1.16",
    { ...HOST_PROFILES["office2024-windows"], requirementSets: { ExcelApi: "1.15" } },
  ],
])("on %s", (_name, profile) => {
  beforeEach(() => hostAs(profile));

  it("returns plain values", async () => {
    await expect(property([[id]], [["asking_rent", "collected_at"]], fakeInvocation())).resolves.toEqual([
      [record.asking_rent, isoToSerial(record.collected_at as string)],
    ]);
    await expect(market([[msaId]], [["rent_avg_t30"]], undefined, fakeInvocation())).resolves.toEqual([
      [marketRecord.rent_avg_t30],
    ]);
  });

  it("spills a whole record as [field, value] rows", async () => {
    const rows = await property([[id]], undefined, fakeInvocation());
    const byField = new Map(rows.map((row) => [row[0], row[1]]));
    expect(byField.get("property_name")).toBe(record.property_name);
    expect(byField.get("asking_rent")).toBe(record.asking_rent);
    expect(byField.size).toBe(Object.keys(record).length);
    const marketRows = (await market([[msaId]], undefined, undefined, fakeInvocation())) as unknown[][];
    expect(new Map(marketRows.map((row) => [row[0], row[1]])).get("rent_avg_t30")).toBe(
      marketRecord.rent_avg_t30,
    );
  });

  it("asks for a field when several ids want whole records", async () => {
    await expect(property([[id], [id + 1]], undefined, fakeInvocation())).rejects.toMatchObject({
      code: "#VALUE!",
      message: expect.stringContaining("name a field"),
    });
  });
});
