/**
 * The Insert tab as an underwriter uses it, in Chromium over the stand-in: search a market by name, pick
 * metrics, insert; select a column of property ids (or of market names), pick fields, insert one block
 * formula over them. The cells must show what the sandbox serves.
 */
import {
  SETUP_TIMEOUT_MS,
  newSheet,
  openPreviewBrowser,
  openTab,
  paneAction,
  shownAt,
  signIn,
  typeInto,
  valuesOf,
  type HostWindow,
  type PreviewBrowser,
  isTicked,
  tick,
} from "./support/previewBrowser";
import { rawService, type RawService } from "../support/rawService";
import { labelOf } from "../../src/api/fieldFacts";
import { sortDirectionValues } from "../../src/api/schema";

jest.setTimeout(90_000);

interface Envelope<T> {
  id: string;
  attributes: T;
}
type Attributes = Record<string, unknown>;

let world: PreviewBrowser;
let raw: RawService;
let accountId: number;

beforeAll(async () => {
  world = await openPreviewBrowser();
  raw = await rawService(world.preview.sandbox.url, "demo-pro", "sandbox-secret-pro");
  accountId = (await raw.get<{ data: { id: number }[] }>("/accounts")).data[0]?.id ?? 0;
  await signIn(world, "demo-pro", "sandbox-secret-pro");
}, SETUP_TIMEOUT_MS);

afterAll(() => world?.close());

const formulaAt = (sheet: string, row: number, column: number) =>
  world.page.evaluate(
    ({ sheet, row, column }) =>
      (window as unknown as HostWindow).rentMarketHost.workbook.sheet(sheet).cell(row, column)?.formula,
    { sheet, row, column },
  );

/** A property's name as the sandbox serves it. */
async function propertyName(id: number): Promise<string> {
  const { data } = await raw.get<{ data: Envelope<{ property_name: string }>[] }>(
    "/properties/bulk_details",
    {
      account_id: accountId,
      property_ids: String(id),
    },
  );
  return data[0]?.attributes.property_name ?? "";
}

async function typeInSearch(text: string): Promise<void> {
  // Typed key by key, as a person types: the pane waits for a pause before it searches.
  await world.pane.locator("#insert-search input").fill("");
  await world.pane.locator("#insert-search input").pressSequentially(text, { delay: 30 });
}

it("searches a market by name, shows two metrics' values, and inserts their formulas", async () => {
  const { page, pane, preview } = world;
  const sheet = await newSheet(page);
  await page.locator('#grid td[data-address="B2"]').click();
  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("market");

  const found = await raw.post<{ data: Envelope<{ id: number; name: string; geo_type: string }>[] }>(
    "/geo_boundaries/search",
    { account_id: accountId, query: "Austin", geo_type: ["MSA", "BespokeSubmarket"], limit: 8 },
  );
  const best = found.data[0]?.attributes;
  if (!best) throw new Error("the sandbox has no Austin boundary");
  const searches = () => preview.sandbox.counters.get("/v1/geo_boundaries/search");
  const before = searches();
  await typeInSearch("Austin");
  await pane.locator(`#insert-found-${best.id}`).waitFor({ state: "attached" });
  await expect(isTicked(pane.locator(`#insert-found-${best.id}`))).resolves.toBe(true);
  expect(await pane.locator("#insert-found fluent-radio").count()).toBe(found.data.length);
  // Six keys, one search: the search waits for the typing to pause.
  expect(searches() - before).toBe(1);

  await pane.locator("#insert-field-filter input").fill("leased");
  await tick(pane.locator("#insert-field-leased_percent_avg_t30"));
  await pane.locator("#insert-field-filter input").fill("");
  await tick(pane.locator("#insert-field-rent_avg_t30"));
  await expect(pane.locator("#insert-formula").textContent()).resolves.toBe(
    `=RENT.MARKET(${best.id}, "leased_percent_avg_t30")  =RENT.MARKET(${best.id}, "rent_avg_t30")`,
  );

  const market = await raw.post<{ data: Envelope<Attributes>[] }>("/explore_markets", {
    account_id: accountId,
    market_filters: { geo_type: best.geo_type, geo_boundary_ids: [best.id] },
    limit: 1,
  });
  const metrics = market.data[0]?.attributes ?? {};
  expect(typeof metrics.rent_avg_t30).toBe("number");

  await paneAction(world, "insert-preview-button");
  // As the cells will show them: the stand-in holds data types, so the values come formatted.
  const dollars = (value: number) =>
    value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  expect(await pane.locator("#insert-preview li").allTextContents()).toEqual([
    // A percent is a fraction under Excel's % format (the documented variant sends fractions).
    `leased_percent_avg_t30: ${(Number(metrics.leased_percent_avg_t30) * 100).toFixed(2)}%`,
    `rent_avg_t30: $${dollars(Number(metrics.rent_avg_t30))}`,
  ]);

  expect(await paneAction(world, "insert-button")).toBe("Inserted 2 formulas at B2.");
  expect(await formulaAt(sheet, 1, 1)).toBe(`=RENT.MARKET(${best.id}, "leased_percent_avg_t30")`);
  expect(valuesOf(await shownAt(page, sheet, "B2"))).toEqual([[metrics.leased_percent_avg_t30]]);
  expect(valuesOf(await shownAt(page, sheet, "C2"))).toEqual([[metrics.rent_avg_t30]]);
});

it("inserts one block formula over ten selected property ids that refers to their cells", async () => {
  const { page, pane } = world;
  const ids = (
    await raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: accountId,
      city: "Austin",
      per_page: 10,
    })
  ).data;
  expect(ids).toHaveLength(10);
  const sheet = await newSheet(page);
  for (const [index, id] of ids.entries()) await typeInto(page, `A${index + 2}`, String(id));
  await page.locator('#grid td[data-address="A2"]').click();
  await page.locator('#grid td[data-address="A11"]').click({ modifiers: ["Shift"] });

  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("property");
  const fields = ["asking_rent", "unit_count", "year_built"];
  for (const field of fields) await tick(pane.locator(`#insert-field-${field}`));

  expect(await paneAction(world, "insert-button")).toBe(
    "Inserted 1 formula at B2, with its header row in B1:D1.",
  );
  expect(await formulaAt(sheet, 1, 1)).toBe('=RENT.PROPERTY(A2:A11, "asking_rent,unit_count,year_built")');
  expect(valuesOf(await shownAt(page, sheet, "B1"))).toEqual([[labelOf("asking_rent", "property")]]);
  const records = (
    await raw.get<{ data: Envelope<Attributes>[] }>("/properties/bulk_details", {
      account_id: accountId,
      property_ids: ids.join(","),
    })
  ).data;
  const expected = ids.map((id) => {
    const attributes = records.find((record) => Number(record.id) === id)?.attributes ?? {};
    return fields.map((field) => attributes[field] ?? "");
  });
  expect(valuesOf(await shownAt(page, sheet, "B2"))).toEqual(expected);
});

it("inserts one block RENT.MARKET over selected market names, one row per market", async () => {
  const { page, pane } = world;
  const names = ["Austin", "Dallas", "Houston"];
  const sheet = await newSheet(page);
  for (const [index, name] of names.entries()) await typeInto(page, `A${index + 2}`, name);
  await page.locator('#grid td[data-address="A2"]').click();
  await page.locator('#grid td[data-address="A4"]').click({ modifiers: ["Shift"] });

  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("market");
  const metrics = ["rent_avg_t30", "leased_percent_avg_t30"];
  for (const metric of metrics) await tick(pane.locator(`#insert-field-${metric}`));

  expect(await paneAction(world, "insert-button")).toBe(
    "Inserted 1 formula at B2, with its header row in B1:C1.",
  );
  expect(await formulaAt(sheet, 1, 1)).toBe('=RENT.MARKET(A2:A4, "rent_avg_t30,leased_percent_avg_t30")');
  // What the sandbox serves for each name's best MSA or submarket match.
  const expected = await Promise.all(
    names.map(async (name) => {
      const found = await raw.post<{ data: Envelope<{ id: number; geo_type: string }>[] }>(
        "/geo_boundaries/search",
        { account_id: accountId, query: name, geo_type: ["MSA", "BespokeSubmarket"], limit: 1 },
      );
      const best = found.data[0]?.attributes;
      const market = await raw.post<{ data: Envelope<Attributes>[] }>("/explore_markets", {
        account_id: accountId,
        market_filters: { geo_type: best?.geo_type, geo_boundary_ids: [best?.id] },
        limit: 1,
      });
      const attributes = market.data[0]?.attributes ?? {};
      return metrics.map((metric) => attributes[metric]);
    }),
  );
  expect(expected.flat().every((value) => typeof value === "number")).toBe(true);
  expect(valuesOf(await shownAt(page, sheet, "B2"))).toEqual(expected);
});

it("finds a property by part of its name and says what is missing before inserting", async () => {
  const { page, pane } = world;
  await newSheet(page);
  await page.locator('#grid td[data-address="A1"]').click();
  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("property");
  await expect(paneAction(world, "insert-button")).rejects.toThrow(
    "The pane says: Find and choose what the formula is about first.",
  );
  const [first] = (
    await raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: accountId,
      city: "Austin",
      per_page: 1,
    })
  ).data;
  const name = await propertyName(first as number);
  const typed = name.slice(0, 6);
  await typeInSearch(typed);
  await pane.locator("#insert-found fluent-radio").first().waitFor({ state: "attached" });
  const labels = await pane.locator("#insert-found label").allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) expect(label.toLowerCase()).toContain(typed.toLowerCase());
  await expect(paneAction(world, "insert-button")).rejects.toThrow(
    "The pane says: Pick at least one field from the list.",
  );
});

it("inserts a property's forecast found by part of its name, and the formula spills its table", async () => {
  const { page, pane } = world;
  // A property with a forecast (the sandbox, like the service, has none for some).
  const austin = (
    await raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: accountId,
      city: "Austin",
      per_page: 25,
    })
  ).data;
  let first = 0;
  for (const id of austin) {
    const forecast = await raw.post<{ data: { attributes: { time_series: { values: Attributes }[] } } }>(
      `/properties/${id}/forecasts`,
      {
        account_id: accountId,
        aggregations: [
          { name: "rent_growth_rate_yoy", field: "rent_growth_rate_yoy", aggregation_type: "avg" },
        ],
        interval: "month",
      },
    );
    first = id;
    if (forecast.data.attributes.time_series.some((row) => row.values.rent_growth_rate_yoy !== null)) break;
  }
  const name = await propertyName(first as number);
  const sheet = await newSheet(page);
  await page.locator('#grid td[data-address="A1"]').click();
  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("propertyForecast");
  await typeInSearch(name);
  await tick(pane.locator(`#insert-found-${first}`));
  await tick(pane.locator("#insert-field-rent_growth_rate_yoy"));

  expect(await paneAction(world, "insert-button")).toBe("Inserted 1 formula at A1.");
  expect(await formulaAt(sheet, 0, 0)).toBe(`=RENT.FORECAST(${first}, "rent_growth_rate_yoy")`);
  const table = valuesOf(await shownAt(page, sheet, "A1"));
  expect(table[0]).toEqual(["date", "rent_growth_rate_yoy"]);
  expect(table.length).toBeGreaterThan(12);
});

it("puts the block formula over spilled ids beside their spill, and shows it with its cell before inserting", async () => {
  const { page, pane } = world;
  const sheet = await newSheet(page);
  await typeInto(
    page,
    "A1",
    '=RENT.PROPERTIES(, "property_id, property_name, address", "city=Austin; max_results=10")',
  );
  const source = valuesOf(await shownAt(page, sheet, "A1"));
  expect(source).toHaveLength(11);
  expect(source[0]).toHaveLength(3);
  const ids = source.slice(1).map((row) => row[0]);
  expect(ids.every((id) => typeof id === "number")).toBe(true);
  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("property");
  const fields = ["asking_rent", "unit_count"];
  for (const field of fields) await tick(pane.locator(`#insert-field-${field}`));
  // The spilled ids, as a person selects them after picking the fields: A2 to A11, inside the spill of A1.
  await page.locator('#grid td[data-address="A2"]').click();
  await page.locator('#grid td[data-address="A11"]').click({ modifiers: ["Shift"] });
  const formula = '=RENT.PROPERTY(A2:A11, "asking_rent,unit_count")';
  // Block mode shows the formula, and where it will go, before anything is written; it follows the selection.
  const shown = pane.locator("#insert-formula");
  await shown
    .filter({ hasText: formula })
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  await expect(shown.textContent()).resolves.toBe(`D2: ${formula}`);

  expect(await paneAction(world, "insert-button")).toBe(
    "Inserted 1 formula at D2, with its header row in D1:E1 (B1:C11 is inside the spill of A1, where the selected cells come from).",
  );
  expect(await formulaAt(sheet, 1, 1)).toBeUndefined();
  expect(await formulaAt(sheet, 1, 3)).toBe(formula);
  // The source spill is whole (no #SPILL!) and the block shows the sandbox's records of the same ids.
  expect(valuesOf(await shownAt(page, sheet, "A1"))).toEqual(source);
  const records = (
    await raw.get<{ data: Envelope<Attributes>[] }>("/properties/bulk_details", {
      account_id: accountId,
      property_ids: ids.join(","),
    })
  ).data;
  const expected = ids.map((id) => {
    const attributes = records.find((record) => Number(record.id) === id)?.attributes ?? {};
    return fields.map((field) => attributes[field] ?? "");
  });
  expect(valuesOf(await shownAt(page, sheet, "D2"))).toEqual(expected);
});

it("never writes a formula over data: a block skips to free cells, one cell with data is refused", async () => {
  const { page, pane } = world;
  const sheet = await newSheet(page);
  for (const [index, name] of ["Austin", "Dallas"].entries()) await typeInto(page, `A${index + 2}`, name);
  await typeInto(page, "C3", "my note");
  await page.locator('#grid td[data-address="A2"]').click();
  await page.locator('#grid td[data-address="A3"]').click({ modifiers: ["Shift"] });
  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("market");
  for (const metric of ["rent_avg_t30", "leased_percent_avg_t30"])
    await tick(pane.locator(`#insert-field-${metric}`));
  const block = '=RENT.MARKET(A2:A3, "rent_avg_t30,leased_percent_avg_t30")';
  await pane.locator("#insert-formula", { hasText: block }).waitFor();
  await expect(pane.locator("#insert-formula").textContent()).resolves.toBe(`D2: ${block}`);
  // B2:C3 holds the note in C3: the block (two rows, two columns) goes to D2.
  expect(await paneAction(world, "insert-button")).toBe(
    "Inserted 1 formula at D2, with its header row in D1:E1 (B1:C3 beside the selection is not empty).",
  );
  expect(await formulaAt(sheet, 1, 3)).toBe(block);
  expect(valuesOf(await shownAt(page, sheet, "C3"))).toEqual([["my note"]]);
  expect(
    valuesOf(await shownAt(page, sheet, "D2"))
      .flat()
      .every((value) => typeof value === "number"),
  ).toBe(true);

  // One cell chosen, a market found by name: the formulas go exactly there, so a cell with data is refused.
  await page.locator('#grid td[data-address="C3"]').click();
  await typeInSearch("Austin");
  await pane.locator("#insert-found fluent-radio").first().waitFor({ state: "attached" });
  await expect(paneAction(world, "insert-button")).rejects.toThrow(
    "The pane says: C3:D3 is not empty (it holds data): select an empty cell with room for 2 formulas across.",
  );
  expect(valuesOf(await shownAt(page, sheet, "C3"))).toEqual([["my note"]]);
});

it("never writes into another formula's spill where its values are blank: the cells are refused", async () => {
  const { page, pane } = world;
  const sheet = await newSheet(page);
  for (const [index, name] of ["Austin", "Dallas"].entries()) await typeInto(page, `A${index + 2}`, name);
  // Room left for two more markets: C2's block spills C2:D5, its last two rows blank (they read "" as empty
  // cells do).
  await typeInto(page, "C2", '=RENT.MARKET(A2:A5, "rent_avg_t30,leased_percent_avg_t30")');
  const block = valuesOf(await shownAt(page, sheet, "C2"));
  expect(block).toHaveLength(4);
  expect(block.slice(2).flat()).toEqual(["", "", "", ""]);
  // B5 is empty; the formulas to its right would go over C5, a blank of C2's spill.
  await page.locator('#grid td[data-address="B5"]').click();
  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("market");
  await typeInSearch("Austin");
  await pane.locator("#insert-found fluent-radio").first().waitFor({ state: "attached" });
  for (const metric of ["rent_avg_t30", "leased_percent_avg_t30"])
    await tick(pane.locator(`#insert-field-${metric}`));
  await expect(paneAction(world, "insert-button")).rejects.toThrow(
    /^The pane says: B5:[C-Z]5 is not empty \(part of the spill of C2\): select an empty cell/,
  );
  expect(await formulaAt(sheet, 4, 1)).toBeUndefined();
  expect(await formulaAt(sheet, 4, 2)).toBeUndefined();
  expect(valuesOf(await shownAt(page, sheet, "C2"))).toEqual(block);
});

it("searches properties by city in the pane: ids and addresses shown, the capped list said", async () => {
  const { pane } = world;
  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("property");
  const total = (
    await raw.get<{ pagination: { total_count: number } }>("/properties/lookup", {
      account_id: accountId,
      city: "Austin",
      per_page: 1,
    })
  ).pagination.total_count;
  await typeInSearch("Austin");
  await pane.locator("#status", { hasText: "Showing 8 of" }).waitFor();
  await expect(pane.locator("#status").textContent()).resolves.toBe(
    `Showing 8 of ${total} found for "Austin" (name, address or city): refine it (more of the name, or the street) to see the rest.`,
  );
  const labels = await pane.locator("#insert-found label").allTextContents();
  expect(labels).toHaveLength(8);
  for (const label of labels) expect(label).toMatch(/^.+ · .+, Austin, [A-Z]{2} · id \d+$/);
});

/** Ids of Austin properties whose forecast of forecast rent by year has values, as the sandbox serves it. */
async function propertiesWithForecasts(count: number): Promise<{ id: number; series: Attributes[] }[]> {
  const austin = (
    await raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: accountId,
      city: "Austin",
      per_page: 60,
    })
  ).data;
  const withValues: { id: number; series: Attributes[] }[] = [];
  for (const id of austin) {
    const forecast = await raw.post<{ data: { attributes: { time_series: { values: Attributes }[] } } }>(
      `/properties/${id}/forecasts`,
      {
        account_id: accountId,
        aggregations: [
          { name: "rent_growth_rate_yoy", field: "rent_growth_rate_yoy", aggregation_type: "avg" },
        ],
        interval: "year",
        use_rent_value: true,
      },
    );
    const series = forecast.data.attributes.time_series.map((row) => row.values);
    if (series.some((values) => typeof values.rent_growth_rate_yoy === "number"))
      withValues.push({ id, series });
    if (withValues.length === count) return withValues;
  }
  throw new Error(`the sandbox has fewer than ${count} Austin properties with forecasts`);
}

it("inserts a dollar forecast by year for ten selected properties in under 20 clicks and keys", async () => {
  const { page, pane } = world;
  const properties = await propertiesWithForecasts(10);
  const sheet = await newSheet(page);
  for (const [index, { id }] of properties.entries()) await typeInto(page, `A${index + 2}`, String(id));

  // Every click, choice and key a person makes from here on, counted.
  let gestures = 0;
  const gesture = async (act: Promise<unknown>) => {
    gestures += 1;
    await act;
  };
  await gesture(page.locator('#grid td[data-address="A2"]').click());
  await gesture(page.locator('#grid td[data-address="A11"]').click({ modifiers: ["Shift"] }));
  await gesture(openTab(world, "insert"));
  await gesture(pane.locator("#insert-kind").selectOption("propertyForecast"));
  await gesture(tick(pane.locator("#insert-field-rent_growth_rate_yoy")));
  await gesture(pane.locator("#insert-interval").selectOption("year"));
  await gesture(tick(pane.locator("#insert-dollars")));
  const first = '=RENT.FORECAST(A2, "rent_growth_rate_yoy", , "year", , , TRUE)';
  await pane.locator("#insert-formula", { hasText: first }).waitFor();
  await expect(pane.locator("#insert-formula").textContent()).resolves.toBe(
    `B2: ${first}  (and 9 more, one per property)`,
  );
  let status = "";
  await gesture(paneAction(world, "insert-button").then((shown) => (status = shown)));
  expect(gestures).toBeLessThan(20);
  // A year's table: its header and at most six years (60 months from this month touch six calendar years),
  // under the property's name, and a blank row.
  const every = 9;
  expect(status).toBe(`Inserted 10 formulas at B2, each under its property's name, ${every} rows apart.`);

  for (const [index, { id, series }] of properties.entries()) {
    const top = 2 + index * every;
    expect(await formulaAt(sheet, top - 1, 1)).toBe(`=RENT.PROPERTY(A${index + 2}, "property_name")`);
    expect(valuesOf(await shownAt(page, sheet, `B${top}`))).toEqual([[await propertyName(id)]]);
    expect(await formulaAt(sheet, top, 1)).toBe(
      `=RENT.FORECAST(A${index + 2}, "rent_growth_rate_yoy", , "year", , , TRUE)`,
    );
    const table = valuesOf(await shownAt(page, sheet, `B${top + 1}`));
    expect(table[0]).toEqual([
      "date",
      "forecast rent (rent_growth_rate_yoy)",
      "covers_from",
      "covers_to",
      "months_covered",
    ]);
    // The dollars the sandbox forecasts for the property, year by year.
    expect(table.slice(1).map((row) => row[1])).toEqual(
      series.map((values) => values.rent_growth_rate_yoy ?? ""),
    );
    expect(table.length).toBeLessThanOrEqual(every - 2);
  }
});

it("inserts a five-market block under a header row of the metrics' readable names", async () => {
  const { page, pane } = world;
  const names = ["Austin", "Dallas", "Houston", "San Antonio", "Phoenix"];
  const sheet = await newSheet(page);
  await typeInto(page, "A1", "Market");
  for (const [index, name] of names.entries()) await typeInto(page, `A${index + 2}`, name);
  await page.locator('#grid td[data-address="A2"]').click();
  await page.locator('#grid td[data-address="A6"]').click({ modifiers: ["Shift"] });
  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("market");
  const metrics = ["rent_avg_t30", "leased_percent_avg_t30"];
  for (const metric of metrics) await tick(pane.locator(`#insert-field-${metric}`));

  expect(await paneAction(world, "insert-button")).toBe(
    "Inserted 1 formula at B2, with its header row in B1:C1.",
  );
  // The header row is text the builder writes above the block: the contract's labels of the metrics.
  const header = [valuesOf(await shownAt(page, sheet, "B1")), valuesOf(await shownAt(page, sheet, "C1"))];
  expect(header.flat(2)).toEqual(metrics.map((metric) => labelOf(metric, "market")));
  expect(header[0]).toEqual([["Asking rent, avg 30 d"]]);
  expect(await formulaAt(sheet, 1, 1)).toBe('=RENT.MARKET(A2:A6, "rent_avg_t30,leased_percent_avg_t30")');
  const block = valuesOf(await shownAt(page, sheet, "B2"));
  expect(block).toHaveLength(5);
  expect(block.flat().every((value) => typeof value === "number")).toBe(true);
});

it("offers RENT.MARKETS' sort, direction and limit, and the formula ranks as the sandbox does", async () => {
  const { page, pane } = world;
  const sheet = await newSheet(page);
  await page.locator('#grid td[data-address="A1"]').click();
  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("markets");
  await expect(pane.locator("#insert-markets-options").isVisible()).resolves.toBe(true);
  await expect(pane.locator("#insert-search").isVisible()).resolves.toBe(false);
  // The directions are the contract's, after the default.
  expect(
    await pane
      .locator("#insert-markets-direction option")
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)),
  ).toEqual(["", ...sortDirectionValues]);
  const metrics = ["rent_avg_t30", "leased_percent_avg_t30"];
  for (const metric of metrics) await tick(pane.locator(`#insert-field-${metric}`));
  // The metrics to sort by are the ones picked.
  expect(
    await pane
      .locator("#insert-markets-sort option")
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)),
  ).toEqual(["", ...metrics]);
  await pane.locator("#insert-markets-sort").selectOption("leased_percent_avg_t30");
  await pane.locator("#insert-markets-direction").selectOption("asc");
  await pane.locator("#insert-markets-limit input").fill("5");
  const formula =
    '=RENT.MARKETS("rent_avg_t30,leased_percent_avg_t30", "sort=leased_percent_avg_t30; direction=asc; limit=5", "names")';
  await pane.locator("#insert-formula", { hasText: formula }).waitFor();

  expect(await paneAction(world, "insert-button")).toBe("Inserted 1 formula at A1.");
  expect(await formulaAt(sheet, 0, 0)).toBe(formula);
  const ranked = await raw.post<{ data: Envelope<Attributes>[] }>("/explore_markets", {
    account_id: accountId,
    market_filters: { geo_type: "MSA" },
    sort: "leased_percent_avg_t30",
    sort_direction: "asc",
    limit: 5,
  });
  const table = valuesOf(await shownAt(page, sheet, "A1"));
  expect(table).toHaveLength(6);
  expect(table.slice(1).map((row) => row[0])).toEqual(ranked.data.map((entry) => entry.attributes.id));
});

// The file's pane, signed out and signed in again with a base-plan client, as a person switching accounts does:
// the pane must judge the sign-in it has now, not the pro one before it. Last, as it leaves that sign-in.
it("tells a base-plan sign-in in the pane why it cannot search properties and what to insert instead", async () => {
  const { pane } = world;
  await openTab(world, "account");
  await pane.locator("#sign-out-button").click();
  await pane.locator("#sign-in-section").waitFor({ state: "visible" });
  await signIn(world, "demo-base", "sandbox-secret-base");
  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("property");
  await typeInSearch("Austin");
  await pane.locator("#status.error").waitFor();
  await expect(pane.locator("#status").textContent()).resolves.toMatch(
    /^Property search needs the pro plan, which this sign-in does not have .*"A comp set table" \(RENT\.SURVEY\)/,
  );
});
