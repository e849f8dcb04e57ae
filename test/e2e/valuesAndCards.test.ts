/**
 * Values that carry their meaning, in Chromium over the stand-in (its default profile, Microsoft 365 on
 * Windows, holds data types from custom functions: CustomFunctionsRuntime 1.4): spilled rents show as currency, percents as percents, dates as dates;
 * RENT.PROPERTY(id) and RENT.MARKET(boundary) show an entity whose card holds the sandbox's record, and a
 * formula reads its fields with `=A1.asking_rent`.
 */
import { NUMBER_FORMAT_BY_KIND } from "../../src/tables/columnKinds";
import { isoToSerial } from "../../src/tables/excelDates";
import {
  SETUP_TIMEOUT_MS,
  allCalculated,
  newSheet,
  openPreviewBrowser,
  shownAt,
  signIn,
  typeInto,
  type HostWindow,
  type PreviewBrowser,
} from "./support/previewBrowser";
import { rawService, type RawService } from "../support/rawService";

jest.setTimeout(90_000);

type Attributes = Record<string, unknown>;

let world: PreviewBrowser;
let raw: RawService;
let accountId: number;
let msaId: number;

beforeAll(async () => {
  world = await openPreviewBrowser();
  raw = await rawService(world.preview.sandbox.url, "demo-proplus", "sandbox-secret-proplus");
  accountId = (await raw.get<{ data: { id: number }[] }>("/accounts")).data[0]?.id ?? 0;
  const msa = await raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
    account_id: accountId,
    query: "Austin",
    geo_type: "MSA",
    limit: 1,
  });
  msaId = msa.data[0]?.attributes.id as number;
  await signIn(world, "demo-proplus", "sandbox-secret-proplus");
}, SETUP_TIMEOUT_MS);

afterAll(() => world?.close());

const details = async (ids: number[]) =>
  (
    await raw.get<{ data: { attributes: Attributes }[] }>("/properties/bulk_details", {
      account_id: accountId,
      property_ids: ids.join(","),
    })
  ).data.map((entry) => entry.attributes);

/** The text the grid draws in a cell of the active sheet. */
const gridText = (address: string) =>
  world.page.locator(`#grid td[data-address="${address}"]`).evaluate((td) => td.textContent ?? "");

const dollars = (value: number) =>
  `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

it("shows spilled rents as currency, percents as percents and dates as dates", async () => {
  const { page } = world;
  const sheet = await newSheet(page);
  const fields = "property_id, asking_rent, leased_percent, collected_at";
  await typeInto(page, "A1", `=RENT.PROPERTIES(${msaId}, "${fields}", "max_results=8")`);
  const shown = await shownAt(page, sheet, "A1");
  expect(shown[0]?.map((cell) => cell.value)).toEqual([
    "property_id",
    "asking_rent",
    "leased_percent",
    "collected_at",
  ]);
  const rows = shown.slice(1);
  expect(rows.length).toBe(8);
  const records = new Map(
    (await details(rows.map((row) => row[0]?.value as number))).map((record) => [record.property_id, record]),
  );
  const formats = await page.evaluate((name) => {
    const target = (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name);
    return [1, 2, 3].map((column) => target.cell(1, column)?.valueFormat);
  }, sheet);
  let checked = 0;
  for (const [index, row] of rows.entries()) {
    const record = records.get(row[0]?.value) as Attributes;
    const line = index + 2;
    expect(await gridText(`A${line}`)).toBe(String(record.property_id));
    if (typeof record.asking_rent === "number") {
      expect(row[1]?.value).toBe(record.asking_rent);
      expect(await gridText(`B${line}`)).toBe(dollars(record.asking_rent));
      checked++;
    }
    if (typeof record.leased_percent === "number") {
      // A fraction (the documented variant sends fractions) under Excel's %: the cell's value times 100 is shown.
      expect(row[2]?.value).toBe(record.leased_percent);
      expect(await gridText(`C${line}`)).toBe(`${(record.leased_percent * 100).toFixed(2)}%`);
      checked++;
    }
    expect(row[3]?.value).toBe(isoToSerial(record.collected_at as string));
    expect(await gridText(`D${line}`)).toBe((record.collected_at as string).slice(0, 10));
  }
  expect(checked).toBeGreaterThan(0);
  // A blank first cell has no format to show; the rest are the exports' formats.
  expect(formats.filter((format) => format !== undefined)).toEqual(
    [NUMBER_FORMAT_BY_KIND.currency, NUMBER_FORMAT_BY_KIND.percent, NUMBER_FORMAT_BY_KIND.date].filter(
      (_, index) => formats[index] !== undefined,
    ),
  );
});

it("gives RENT.PROPERTY(id) a card whose fields are the sandbox's record, read with =A1.field", async () => {
  const { page } = world;
  const ids = (
    await raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: accountId,
      city: "Austin",
      per_page: 20,
    })
  ).data;
  const record = (await details(ids)).find((candidate) => typeof candidate.asking_rent === "number");
  expect(record).toBeDefined();
  const sheet = await newSheet(page);
  await typeInto(page, "A1", `=RENT.PROPERTY(${String(record?.property_id)})`);
  await typeInto(page, "B1", "=A1.asking_rent");
  await typeInto(page, "B2", "=A1.[property_name]");
  await typeInto(page, "B3", "=A1.no_such_field");
  await allCalculated(page);
  expect(await shownAt(page, sheet, "A1")).toEqual([[{ value: record?.property_name }]]);
  expect(await shownAt(page, sheet, "B1")).toEqual([[{ value: record?.asking_rent }]]);
  expect(await gridText("B1")).toBe(dollars(record?.asking_rent as number));
  expect(await shownAt(page, sheet, "B2")).toEqual([[{ value: record?.property_name }]]);
  expect((await shownAt(page, sheet, "B3"))[0]?.[0]?.value).toBe("#FIELD!");

  await page.locator('#grid td[data-address="A1"]').click();
  const card = page.locator("#entity-card");
  await card.locator("h2").waitFor();
  expect(await card.locator("h2").textContent()).toBe(record?.property_name);
  const cardFields = await page.evaluate((name) => {
    const cell = (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name).cell(0, 0);
    return Object.fromEntries(
      Object.entries(cell?.entity?.fields ?? {}).map(([key, field]) => [key, field.value]),
    );
  }, sheet);
  const drawn = await card
    .locator("tr")
    .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.field ?? ""));
  const scalars = Object.entries(record as Attributes).filter(
    ([, value]) => value === null || typeof value !== "object",
  );
  expect(scalars.length).toBeGreaterThan(10);
  for (const [field, value] of scalars) {
    const expected =
      value === null
        ? ""
        : typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)
          ? isoToSerial(value)
          : value;
    expect({ field, value: cardFields[field] }).toEqual({ field, value: expected });
    expect(drawn).toContain(field);
  }
  const rentRow = card.locator('tr[data-field="asking_rent"] td');
  expect(await rentRow.textContent()).toBe(dollars(record?.asking_rent as number));
});

it("gives RENT.MARKET(boundary) a card of the market's metrics", async () => {
  const { page } = world;
  const market = (
    await raw.post<{ data: { attributes: Attributes }[] }>("/explore_markets", {
      account_id: accountId,
      market_filters: { geo_type: "MSA", geo_boundary_ids: [msaId] },
      limit: 1,
    })
  ).data[0]?.attributes as Attributes;
  const sheet = await newSheet(page);
  await typeInto(page, "A1", '=RENT.MARKET("Austin")');
  await typeInto(page, "B1", "=A1.rent_avg_t30");
  await allCalculated(page);
  expect(await shownAt(page, sheet, "A1")).toEqual([[{ value: market.name }]]);
  expect(await shownAt(page, sheet, "B1")).toEqual([[{ value: market.rent_avg_t30 }]]);
  expect(await gridText("B1")).toBe(dollars(market.rent_avg_t30 as number));
});
