/**
 * Screenshots for the README, made the way the e2e tests work: the preview with the real add-in in
 * headless Chromium against a fresh sandbox. Writes docs/screenshots/*.png.
 *
 *   npx tsx test/e2e/screenshots.ts                    every screenshot
 *   npx tsx test/e2e/screenshots.ts forecast-builder   only the forecast builder's, light and dark
 *   npx tsx test/e2e/screenshots.ts charts             only the block charts', light and dark
 *   npx tsx test/e2e/screenshots.ts templates          only the rent comps and projection templates', light and dark
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import {
  allCalculated,
  newSheet,
  openPreviewBrowser,
  openTab,
  openTabOf,
  paneAction,
  signIn,
  typeInto,
  type HostWindow,
  type PaneTab,
  type PreviewBrowser,
  tick,
} from "./support/previewBrowser";

const OUTPUT = join(__dirname, "..", "..", "docs", "screenshots");

/** A small underwriting sheet: a market, its rent and occupancy, and a block of properties. */
const WORKED_SHEET: [string, string][] = [
  ["A1", "Market"],
  ["B1", '=RENT.BOUNDARY("Austin", "MSA")'],
  ["A2", "Average rent (30 days)"],
  ["B2", '=RENT.MARKET(B1, "rent_avg_t30")'],
  ["A3", "Leased % (30 days)"],
  ["B3", '=RENT.MARKET(B1, "leased_percent_avg_t30")'],
  ["A4", "A bad id shows why"],
  ["B4", '=RENT.PROPERTY(0, "asking_rent")'],
  ["B6", "property_name"],
  ["C6", "unit_count"],
  ["D6", "year_built"],
  ["E6", "asking_rent"],
  ["A6", '=RENT.LOOKUP("city=Austin; property_class=A; max_results=10")'],
  ["B7", "=RENT.PROPERTY(A7:A16, B6:E6)"],
];

/** The whole pane, however long: the frame is stretched to its content for the picture. */
async function wholePane(page: Page, path: string): Promise<void> {
  const frame = page.locator("#taskpane-frame");
  const height = await page
    .frameLocator("#taskpane-frame")
    .locator("body")
    .evaluate((body) => body.scrollHeight);
  await frame.evaluate((element, pixels) => {
    element.style.height = `${pixels}px`;
  }, height);
  await frame.screenshot({ path });
  await frame.evaluate((element) => {
    element.style.height = "";
  });
}

const TABS: PaneTab[] = ["insert", "comp-sets", "exports", "workbook", "account"];

/** Each tab of the pane as the preview shows it (350 px wide), in the light or dark Office theme. */
async function paneTabs(world: PreviewBrowser, scheme: "light" | "dark"): Promise<void> {
  const { page, pane } = world;
  await page.emulateMedia({ colorScheme: scheme });
  await pane.locator(`html[data-theme="${scheme}"]`).waitFor({ state: "attached" });
  for (const tab of TABS) {
    await openTab(world, tab);
    await wholePane(page, join(OUTPUT, `pane-${tab}-${scheme}.png`));
  }
}

/**
 * The Insert tab building a forecast in dollars by year for ten properties selected in the sheet, after Insert:
 * the forecasts under their properties' names beside the ids, in the light and the dark theme.
 */
async function forecastBuilder(world: PreviewBrowser): Promise<void> {
  const { page, pane } = world;
  await newSheet(page);
  await typeInto(page, "A1", '=RENT.LOOKUP("city=Austin; property_class=A; max_results=10")');
  await allCalculated(page);
  await page.locator('#grid td[data-address="A2"]').click();
  await page.locator('#grid td[data-address="A11"]').click({ modifiers: ["Shift"] });
  await openTab(world, "insert");
  await pane.locator("#insert-kind").selectOption("propertyForecast");
  await tick(pane.locator("#insert-field-rent_growth_rate_yoy"));
  await pane.locator("#insert-interval").selectOption("year");
  await tick(pane.locator("#insert-dollars"));
  await paneAction(world, "insert-button");
  await allCalculated(page);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await pane.locator(`html[data-theme="${scheme}"]`).waitFor({ state: "attached" });
    // The buttons fade to the theme's colours: the picture waits for the fade to end.
    await pane
      .locator("body")
      .evaluate(() => Promise.all(document.getAnimations().map((run) => run.finished)));
    await page.screenshot({ path: join(OUTPUT, `forecast-builder-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** `DATE(y,m,d)` of a day so many days ago: the service keeps a few months of floor plan history, to yesterday. */
function excelDate(daysAgo: number): string {
  const date = new Date(Date.now() - daysAgo * 86_400_000);
  return `DATE(${date.getUTCFullYear()},${date.getUTCMonth() + 1},${date.getUTCDate()})`;
}

/** Blocks of each kind a chart draws, as a person would type them; `{compSet}` and `{property}` are filled in. */
const CHARTED_BLOCKS: { name: string; formula: string }[] = [
  {
    name: "history",
    formula: '=RENT.FLOORPLANHISTORY({compSet}, "asking_rent", {weeksAgo8}, {yesterday}, "week")',
  },
  {
    name: "history-wide",
    formula: '=RENT.FLOORPLANHISTORY({compSet}, "asking_rent", {weeksAgo8}, {yesterday}, "week", , , "wide")',
  },
  {
    name: "forecast",
    formula:
      '=RENT.FORECAST({property}, "rent_growth_rate_yoy, rent_growth_rate_yoy_downside, rent_growth_rate_yoy_upside", "avg", "quarter")',
  },
  { name: "comparison", formula: '=RENT.MARKETS("rent_avg_t30", "limit=8")' },
  { name: "rent-by-size", formula: "=RENT.UNITS({compSet})" },
];

/**
 * Each kind of block chart ("Chart this block" on the Workbook tab), the chart alone as the preview draws it, in
 * the light and the dark scheme: chart-<kind>-light.png, chart-<kind>-dark.png.
 */
async function blockCharts(world: PreviewBrowser): Promise<void> {
  const { page, pane } = world;
  await openTab(world, "comp-sets");
  const compSet = await pane.locator("#comp-set-picker option").first().getAttribute("value");
  // A property with a forecast: the first Austin property whose forecast shows figures.
  const sheet = await newSheet(page);
  await typeInto(page, "A1", '=RENT.LOOKUP("city=Austin; max_results=10")');
  await allCalculated(page);
  let property = "";
  for (let row = 2; row <= 11 && property === ""; row++) {
    await typeInto(page, "C1", `=RENT.FORECAST(A${row}, "rent_growth_rate_yoy")`);
    await allCalculated(page);
    property = await page.evaluate(
      ({ name, row }) => {
        const target = (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name);
        return typeof target.cell(1, 3)?.value === "number" ? String(target.cell(row - 1, 0)?.value) : "";
      },
      { name: sheet, row },
    );
  }
  for (const { name, formula } of CHARTED_BLOCKS) {
    await newSheet(page);
    await typeInto(
      page,
      "A1",
      formula
        .replace(/\{compSet\}/g, compSet ?? "")
        .replace("{property}", property)
        .replace("{weeksAgo8}", excelDate(56))
        .replace("{yesterday}", excelDate(1)),
    );
    await allCalculated(page);
    await page.locator('#grid td[data-address="A1"]').click();
    await openTabOf(world, "chart-button");
    await paneAction(world, "chart-button");
    const chart = page.locator("#chart-layer figure").first();
    await chart.locator("g.chart-series").first().waitFor({ state: "attached" });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await chart.scrollIntoViewIfNeeded();
      await chart.screenshot({ path: join(OUTPUT, `chart-${name}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: "light" });
  }
}

/**
 * The rent comps and five-year projection templates ("New sheet from template", Workbook tab): the whole page,
 * the sheet with its figures and its chart beside the pane, in the light and the dark scheme:
 * template-rent-comps-<scheme>.png, template-rent-projection-<scheme>.png.
 */
async function templateSheets(world: PreviewBrowser): Promise<void> {
  const { page, pane } = world;
  // Wide enough for the figures and the chart beside the block, which sit right of what 1400 px shows.
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 3000, height: 1150 });
  for (const template of ["rent-comps", "rent-projection"]) {
    await openTabOf(world, "template-choice");
    await pane.locator("#template-choice").selectOption(template);
    await paneAction(world, "template-button");
    await allCalculated(page);
    await page.locator("#chart-layer figure g.chart-series").first().waitFor({ state: "attached" });
    await page.locator('#grid td[data-address="A1"]').click();
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await pane.locator(`html[data-theme="${scheme}"]`).waitFor({ state: "attached" });
      await pane
        .locator("body")
        .evaluate(() => Promise.all(document.getAnimations().map((run) => run.finished)));
      await page.screenshot({ path: join(OUTPUT, `template-${template}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: "light" });
  }
  if (viewport) await page.setViewportSize(viewport);
}

async function main(only: string | undefined): Promise<void> {
  mkdirSync(OUTPUT, { recursive: true });
  const world = await openPreviewBrowser({}, { width: 1400, height: 900 });
  try {
    if (only === "forecast-builder") {
      await signIn(world, "demo-pro", "sandbox-secret-pro");
      await forecastBuilder(world);
      return;
    }
    if (only === "charts") {
      await signIn(world, "demo-proplus", "sandbox-secret-proplus");
      await blockCharts(world);
      return;
    }
    if (only === "templates") {
      await signIn(world, "demo-proplus", "sandbox-secret-proplus");
      await templateSheets(world);
      return;
    }
    if (only !== undefined)
      throw new Error(`No screenshots named ${only}: forecast-builder, charts, templates, or none for all.`);
    const { page, pane } = world;
    // The sign-in form a person meets first, its service settings open.
    await pane.locator("#service-settings summary").click();
    await wholePane(page, join(OUTPUT, "pane-sign-in-light.png"));
    await signIn(world, "demo-pro", "sandbox-secret-pro");
    for (const [address, input] of WORKED_SHEET) await typeInto(page, address, input);
    await allCalculated(page);
    // Selecting the error cell shows its message under the formula bar, as Excel shows it on the cell.
    await page.locator('#grid td[data-address="B4"]').click();
    await page.locator('#grid td[data-address="B4"].error').waitFor();
    await page.screenshot({ path: join(OUTPUT, "worked-sheet.png") });

    // A property as an entity: its card beside the grid, and fields read from it with =A1.field. The
    // property is one of the worked sheet's block (rows 7 to 16) with a known rent, so the fields show figures.
    const rentedRow = await page.evaluate(() => {
      const sheet = (window as unknown as HostWindow).rentMarketHost.workbook.sheet("Sheet1");
      for (let row = 6; row < 16; row++) if (typeof sheet.cell(row, 4)?.value === "number") return row + 1;
      return 7;
    });
    await newSheet(page);
    await typeInto(page, "A1", `=RENT.PROPERTY(Sheet1!A${rentedRow})`);
    await typeInto(page, "A3", "asking_rent");
    await typeInto(page, "B3", "=A1.asking_rent");
    await typeInto(page, "A4", "leased_percent");
    await typeInto(page, "B4", "=A1.leased_percent");
    await typeInto(page, "A5", "collected_at");
    await typeInto(page, "B5", "=A1.collected_at");
    await allCalculated(page);
    await page.locator('#grid td[data-address="A1"]').click();
    await page.locator("#entity-card h2").waitFor();
    await page.screenshot({ path: join(OUTPUT, "entity-card.png") });

    // The Insert tab in use: a market found by name, two metrics ticked, their values shown.
    await newSheet(page);
    await openTab(world, "insert");
    await pane.locator("#insert-search input").pressSequentially("Austin", { delay: 30 });
    await pane.locator("#insert-found fluent-radio").first().waitFor({ state: "attached" });
    await tick(pane.locator("#insert-field-rent_avg_t30"));
    await tick(pane.locator("#insert-field-leased_percent_avg_t30"));
    await paneAction(world, "insert-preview-button");
    await pane.locator("#comp-set-picker option").first().waitFor({ state: "attached" });
    await paneTabs(world, "light");
    await paneTabs(world, "dark");
    await page.emulateMedia({ colorScheme: "light" });

    await paneAction(world, "export-units-button");
    await page.locator("#grid td.table-header").first().waitFor();
    await page.screenshot({ path: join(OUTPUT, "comp-set-export.png") });
    await forecastBuilder(world);
    await blockCharts(world);
    await templateSheets(world);
    console.log(`Screenshots written to ${OUTPUT}`);
  } finally {
    await world.close();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
